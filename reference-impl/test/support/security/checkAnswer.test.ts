import { describe, expect, it } from 'vitest';
import { checkAnswer, landing } from './checkAnswer.ts';
import type { RawAnswer } from './rawHttp.ts';
import { specOperations } from './specOperations.ts';

// Test the tester: known-good and known-bad answers for the fuzz test's oracle.

const ID = '5f0c1a52-8b0e-4c4f-9a59-1c3f0b7a2e11';
const REASONS: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
};

function errorAnswer(status: number, headers: Record<string, string> = {}): RawAnswer {
  const json = { status, error: REASONS[status], message: 'what was received and what was expected' };
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: Buffer.from(JSON.stringify(json)),
    json,
  };
}

function emptyAnswer(status: number, headers: Record<string, string> = {}): RawAnswer {
  return { status, headers, body: Buffer.alloc(0), json: undefined };
}

describe('landing', () => {
  it('when a path matches a template, then the method picks the operation; HEAD picks GET; a final slash is the same path', () => {
    expect(landing('GET', `/events/${ID}?x=1`).operation?.operationId).toBe('getEvent');
    expect(landing('HEAD', '/events/').operation?.operationId).toBe('listEvents');
    expect(landing('PATCH', '/events').operation).toBeUndefined();
    expect(
      landing('PATCH', '/events')
        .onPath.map((op) => op.operationId)
        .sort(),
    ).toEqual(['createEvent', 'listEvents']);
  });

  it('when a path value holds a raw slash or is empty, then it is another path, maybe outside the spec', () => {
    expect(landing('GET', `/assets/${ID}/../../etc/passwd`).onPath).toEqual([]);
    expect(landing('GET', '/events//geojson').onPath).toEqual([]);
    expect(landing('GET', `/assets/${ID}/..%2f..%2fetc%2fpasswd`).operation?.operationId).toBe('getAssetFile');
  });
});

describe('checkAnswer', () => {
  it('when an operation answers a status it documents, in the error shape, then there is no problem', () => {
    expect(checkAnswer({ method: 'GET', path: `/events/${ID}` }, errorAnswer(413), 100).problems).toEqual([]);
    expect(checkAnswer({ method: 'GET', path: '/actuator/health' }, errorAnswer(400), 100).problems).toEqual([]);
  });

  it('when an operation answers a status it does not document, then that is a problem, whatever the status', () => {
    expect(checkAnswer({ method: 'GET', path: '/events' }, errorAnswer(415), 100).problems.join()).toMatch(
      /status 415 is not documented for listEvents/,
    );
    // a 404 "No route" on an operation the service should have served
    expect(checkAnswer({ method: 'GET', path: '/events' }, errorAnswer(404), 100).problems.join()).toMatch(
      /status 404 is not documented for listEvents/,
    );
    expect(
      checkAnswer(
        { method: 'PUT', path: `/events/${ID}` },
        errorAnswer(405, { allow: 'GET, PUT, DELETE' }),
        100,
      ).problems.join(),
    ).toMatch(/status 405 is not documented for updateEvent/);
  });

  it("when a request is no operation, then only the answers of DEC-ERR-005 pass: 404 off the spec, 405 with the path's Allow, OPTIONS 204 with Allow", () => {
    expect(checkAnswer({ method: 'GET', path: '/nothing-here' }, errorAnswer(404), 100)).toMatchObject({
      problems: [],
      outside: '404 path outside the spec',
    });
    expect(
      checkAnswer({ method: 'PATCH', path: '/events' }, errorAnswer(405, { allow: 'GET, POST' }), 100),
    ).toMatchObject({ problems: [], outside: '405 method not in the spec, with Allow' });
    expect(
      checkAnswer({ method: 'OPTIONS', path: '/events' }, emptyAnswer(204, { allow: 'GET, POST' }), 100),
    ).toMatchObject({ problems: [], outside: '204 OPTIONS with Allow' });

    expect(checkAnswer({ method: 'GET', path: '/nothing-here' }, errorAnswer(413), 100).problems.join()).toMatch(
      /status 413 for a path outside the spec/,
    );
    expect(checkAnswer({ method: 'PATCH', path: '/events' }, errorAnswer(400), 100).problems.join()).toMatch(
      /status 400 for PATCH/,
    );
    expect(
      checkAnswer({ method: 'PATCH', path: '/events' }, errorAnswer(405, { allow: 'GET' }), 100).problems.join(),
    ).toMatch(/Allow: GET \(expected/);
    // Express' own OPTIONS answer: 200 with a text/plain body
    const expressOptions: RawAnswer = {
      status: 200,
      headers: { allow: 'GET, HEAD, POST', 'content-type': 'text/plain' },
      body: Buffer.from('GET, HEAD, POST'),
      json: undefined,
    };
    expect(checkAnswer({ method: 'OPTIONS', path: '/events' }, expressOptions, 100).problems.join()).toMatch(
      /status 200 for OPTIONS/,
    );
  });

  it('when Node answers 431 to headers over its limit, then it passes with an empty body, on any request; with small headers it does not', () => {
    expect(checkAnswer({ method: 'GET', path: '/events' }, emptyAnswer(431), 17_000)).toMatchObject({
      problems: [],
      outside: "431 request headers over Node's 16 KiB limit",
    });
    expect(checkAnswer({ method: 'GET', path: '/nothing-here' }, emptyAnswer(431), 17_000).problems).toEqual([]);
    expect(checkAnswer({ method: 'GET', path: '/events' }, emptyAnswer(431), 500).problems.join()).toMatch(
      /status 431 is not documented/,
    );
  });

  it('when an error body is out of shape or not JSON, or a 5xx comes, then each is a problem', () => {
    const wrongShape: RawAnswer = {
      status: 400,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{"error":"x"}'),
      json: { error: 'x' },
    };
    expect(checkAnswer({ method: 'GET', path: '/events' }, wrongShape, 100).problems.join()).toMatch(/error body:/);
    const html: RawAnswer = {
      status: 404,
      headers: { 'content-type': 'text/html' },
      body: Buffer.from('<h1>no</h1>'),
      json: undefined,
    };
    expect(checkAnswer({ method: 'GET', path: '/nothing-here' }, html, 100).problems.join()).toMatch(
      /Content-Type text\/html/,
    );
    expect(checkAnswer({ method: 'GET', path: '/actuator/health' }, errorAnswer(500), 100).problems.join()).toMatch(
      /server error 500/,
    );
  });
});

describe('the spec, as the fuzz test relies on it', () => {
  it('when any operation gets a body it cannot read, then it documents the 400 and the 413 (DEC-ERR-003: every operation reads a JSON body first)', () => {
    const missing = specOperations()
      .filter((op) => !op.statuses.has(400) || !op.statuses.has(413))
      .map((op) => op.operationId);
    expect(missing).toEqual([]);
  });
});
