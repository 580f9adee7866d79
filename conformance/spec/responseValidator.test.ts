import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { escapePointer as escapeToken, joinPointer, resolveLocal } from '../../spec/index.ts';
import { parseSpec } from '../../spec/index.ts';
import { createResponseValidator } from './responseValidator.ts';

const spec = parseSpec(readFileSync(new URL('../test/fixtures/mini-openapi.json', import.meta.url)));
const validator = createResponseValidator(spec.document);

const rateHeaders = { 'x-ratelimit-limit': '20', 'x-ratelimit-policy': '20;w=1;burst=40' };
const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const event = {
  id: '3f1b6d2e-8c4a-4e7b-9f10-2a5c7d9e1b34',
  trcid: 'trc-1',
  entitytype: 'EVENEMENT',
  creationdate: '2026-11-20T08:30:00.123Z',
};

function list(body: unknown, extra: Record<string, string> = {}) {
  return validator.validate({
    method: 'GET',
    path: '/events',
    status: 200,
    headers: { 'content-type': 'application/json', ...rateHeaders, ...extra },
    body: json(body),
  });
}

describe('findOperation', () => {
  it('when a concrete path is given, then it matches the template and extracts parameters', () => {
    const op = validator.findOperation('GET', '/events/abc');
    expect(op).toMatchObject({ template: '/events/{id}', params: { id: 'abc' }, pointer: '/paths/~1events~1{id}/get' });
  });

  it('when the path carries the /api base path, then it is stripped', () => {
    expect(validator.findOperation('get', '/api/events')?.template).toBe('/events');
  });

  it('when a literal template and a templated one both match, then the literal wins', () => {
    expect(validator.findOperation('GET', '/dictionary/userorganisations')?.template).toBe(
      '/dictionary/userorganisations',
    );
    expect(validator.findOperation('GET', '/dictionary/other')?.template).toBe('/dictionary/{name}');
  });

  it('when a path item is a $ref, then the operation resolves through it', () => {
    expect(validator.findOperation('GET', '/venues')?.pointer).toBe('/components/pathItems/List/get');
  });
});

describe('validate', () => {
  it('when the response conforms, then there are no problems (extra members tolerated)', () => {
    expect(list([{ ...event, somethingNew: { nested: true } }])).toEqual([]);
  });

  it('when the operation is unknown, then the problem says so', () => {
    const problems = validator.validate({
      method: 'POST',
      path: '/nowhere',
      status: 200,
      headers: {},
      body: undefined,
    });
    expect(problems).toEqual([
      expect.objectContaining({ kind: 'operation', message: 'the spec has no operation POST /nowhere' }),
    ]);
  });

  it('when the status is not documented, then the problem lists the documented ones', () => {
    const problems = validator.validate({ method: 'GET', path: '/events', status: 500, headers: {}, body: undefined });
    expect(problems).toEqual([
      expect.objectContaining({ kind: 'status', received: 500, expected: '200 or 400 or 401 or 429' }),
    ]);
  });

  it('when the status matches a 4XX range or default, then that response is used', () => {
    const err = json({ status: 409, error: 'Conflict', message: 'taken' });
    expect(
      validator.validate({
        method: 'GET',
        path: '/events/x',
        status: 409,
        headers: { 'content-type': 'application/json' },
        body: err,
      }),
    ).toEqual([]);
    expect(
      validator.validate({
        method: 'DELETE',
        path: '/events/x/image',
        status: 503,
        headers: { 'content-type': 'application/json' },
        body: json({ status: 503, error: 'Service Unavailable', message: 'down' }),
      }),
    ).toEqual([]);
  });

  it('when a documented response is a $ref, then its headers and schema apply', () => {
    const problems = validator.validate({
      method: 'GET',
      path: '/events',
      status: 401,
      headers: { 'content-type': 'application/json' },
      body: json({ status: 401, error: 'Unauthorized', message: 'no token' }),
    });
    expect(problems).toEqual([
      expect.objectContaining({
        kind: 'header',
        pointer: 'header/WWW-Authenticate',
        message: 'required header WWW-Authenticate is missing',
      }),
    ]);
  });

  it('when a required header is missing or invalid, then each is reported with its name', () => {
    const missing = validator.validate({
      method: 'GET',
      path: '/events',
      status: 200,
      headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '20' },
      body: json([]),
    });
    expect(missing).toEqual([expect.objectContaining({ pointer: 'header/X-RateLimit-Policy', received: '(absent)' })]);
    const invalid = list([], { 'x-ratelimit-limit': '25' });
    expect(invalid).toEqual([
      expect.objectContaining({ pointer: 'header/X-RateLimit-Limit', received: '25', expected: 'the constant 20' }),
    ]);
  });

  it('when an integer header holds a number as text, then it is coerced before validation', () => {
    const ok = validator.validate({
      method: 'GET',
      path: '/events',
      status: 429,
      headers: { ...rateHeaders, 'retry-after': '3', 'content-type': 'application/json' },
      body: json({ status: 429, error: 'Too Many Requests', message: 'slow down' }),
    });
    expect(ok).toEqual([]);
    const bad = validator.validate({
      method: 'GET',
      path: '/events',
      status: 429,
      headers: { ...rateHeaders, 'retry-after': '0.5', 'content-type': 'application/json' },
      body: json({ status: 429, error: 'Too Many Requests', message: 'slow down' }),
    });
    expect(bad).toEqual([expect.objectContaining({ pointer: 'header/Retry-After', received: '0.5' })]);
  });

  it('when the content type is not documented, then the problem names the documented ones', () => {
    const problems = validator.validate({
      method: 'GET',
      path: '/events',
      status: 200,
      headers: { ...rateHeaders, 'content-type': 'text/html; charset=utf-8' },
      body: '<html>',
    });
    expect(problems).toEqual([
      expect.objectContaining({
        kind: 'content-type',
        received: 'text/html; charset=utf-8',
        expected: 'application/json',
      }),
    ]);
  });

  it('when the content type has parameters, then they are ignored', () => {
    expect(list([], { 'content-type': 'application/json; charset=utf-8' })).toEqual([]);
  });

  it('when a body is sent where none is documented, then it is a problem', () => {
    const problems = validator.validate({
      method: 'DELETE',
      path: '/events/x/image',
      status: 204,
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(problems[0]).toMatchObject({ kind: 'content-type', expected: 'no body' });
    expect(
      validator.validate({ method: 'DELETE', path: '/events/x/image', status: 204, headers: {}, body: undefined }),
    ).toEqual([]);
  });

  it('when the body is not JSON, then the problem says so', () => {
    const problems = validator.validate({
      method: 'GET',
      path: '/events',
      status: 200,
      headers: { ...rateHeaders, 'content-type': 'application/json' },
      body: '[{',
    });
    expect(problems[0]).toMatchObject({ kind: 'body', pointer: '', expected: 'JSON' });
  });

  it('when the body is an object instead of an array, then the root pointer fails on type', () => {
    expect(list({ results: [] })).toEqual([
      expect.objectContaining({ pointer: '', expected: 'type array', message: '(root) must be array' }),
    ]);
  });

  it('when a required member is missing deep in a list, then the pointer names it', () => {
    const { trcid: _omit, ...noTrcid } = event;
    const problems = list([event, noTrcid]);
    expect(problems).toEqual([
      expect.objectContaining({
        kind: 'body',
        pointer: '/1/trcid',
        received: '(absent)',
        expected: 'property "trcid" present',
      }),
    ]);
  });

  it("when one discriminated variant is wrong, then only that variant's error is reported", () => {
    const problems = list([{ ...event, priceElements: [{ from: 'ten' }] }]);
    expect(problems).toEqual([
      expect.objectContaining({ pointer: '/0/priceElements/0/from', received: 'ten', expected: 'type number' }),
    ]);
  });

  it('when the discriminator value is unknown, then the enum of known values is expected', () => {
    const problems = list([{ ...event, entitytype: 'EVENEMENTGROEP' }]);
    expect(problems[0]).toMatchObject({ pointer: '/0/entitytype', received: 'EVENEMENTGROEP' });
    expect(String(problems[0]!.expected)).toContain('EVENTGROUP');
  });

  it('when a format is violated, then the format is the expectation', () => {
    expect(list([{ ...event, creationdate: 'yesterday' }])).toEqual([
      expect.objectContaining({ pointer: '/0/creationdate', expected: 'format "date-time"' }),
    ]);
  });

  it('when a non-JSON media type is documented, then its body is not parsed', () => {
    expect(
      validator.validate({
        method: 'GET',
        path: '/routes/r/gpx',
        status: 200,
        headers: { 'content-type': 'application/gpx+xml' },
        body: '<gpx/>',
      }),
    ).toEqual([]);
  });

  it('when the documented body is missing, then it is a problem', () => {
    expect(
      validator.validate({ method: 'GET', path: '/actuator/health', status: 200, headers: {}, body: undefined })[0],
    ).toMatchObject({ kind: 'body', received: '(empty body)' });
  });

  it('when a size-cap body is checked against anyOf, then the exact message pattern passes', () => {
    const body = json({ status: 400, error: 'Bad Request', message: 'size must not exceed 2000 (requested: 2001)' });
    expect(
      validator.validate({
        method: 'GET',
        path: '/events',
        status: 400,
        headers: { ...rateHeaders, 'content-type': 'application/json' },
        body,
      }),
    ).toEqual([]);
  });
});

describe('validateSchema', () => {
  it('when given a component pointer, then the value is validated against it', () => {
    expect(validator.validateSchema('/components/schemas/Health', { status: 'UP' })).toEqual([]);
    expect(validator.validateSchema('/components/schemas/Health', { status: 'MAYBE' })[0]).toMatchObject({
      pointer: '/status',
    });
  });
});

// The real contract, when it has been generated: the validator must accept everything the spec
// itself documents (no false positives from OpenAPI keywords) and still catch a broken item.
const GENERATED = new URL('../../generated/openapi.json', import.meta.url);
describe.skipIf(!existsSync(GENERATED))('against generated/openapi.json', () => {
  const real = parseSpec(readFileSync(GENERATED));
  const realValidator = createResponseValidator(real.document);
  type Obj = Record<string, any>;

  function documentedJsonExamples(): { where: string; schemaPointer: string; value: unknown }[] {
    const doc = real.document as Obj;
    const out: { where: string; schemaPointer: string; value: unknown }[] = [];
    for (const [path, rawItem] of Object.entries<Obj>(doc.paths)) {
      const item = resolveLocal<Obj>(doc, rawItem, `/paths/${escapeToken(path)}`);
      for (const method of ['get', 'put', 'post', 'delete', 'patch']) {
        const op = item.value[method];
        if (!op) continue;
        for (const [status, rawRes] of Object.entries<Obj>(op.responses ?? {})) {
          const res = resolveLocal<Obj>(doc, rawRes, joinPointer(item.pointer, method, 'responses', status));
          for (const [media, rawMedia] of Object.entries<Obj>(res.value.content ?? {})) {
            const mt = resolveLocal<Obj>(doc, rawMedia, joinPointer(res.pointer, 'content', media));
            if (!/json/.test(media) || !mt.value.schema) continue;
            for (const [name, ex] of Object.entries<Obj>(mt.value.examples ?? {})) {
              out.push({
                where: `${method.toUpperCase()} ${path} ${status} ${name}`,
                schemaPointer: joinPointer(mt.pointer, 'schema'),
                value: resolveLocal<Obj>(doc, ex, '').value.value,
              });
            }
          }
        }
      }
    }
    return out;
  }

  it('when every documented JSON response example is validated, then none is rejected', () => {
    const examples = documentedJsonExamples();
    expect(examples.length).toBeGreaterThan(50);
    const rejected = examples
      .map((e) => ({ where: e.where, problems: realValidator.validateSchema(e.schemaPointer, e.value) }))
      .filter((r) => r.problems.length > 0);
    expect(rejected).toEqual([]);
  });

  it('when an event in a list breaks its schema, then the pointer names the member', () => {
    const op = realValidator.findOperation('GET', '/events')!;
    const schemaPointer = joinPointer(op.pointer, 'responses', '200', 'content', 'application/json', 'schema');
    const good = documentedJsonExamples().find((e) => e.where.startsWith('GET /events 200'))!.value as Obj[];
    const broken = structuredClone(good);
    delete broken[0]!.trcid;
    expect(realValidator.validateSchema(schemaPointer, broken)[0]).toMatchObject({
      pointer: '/0/trcid',
      received: '(absent)',
    });
  });
});
