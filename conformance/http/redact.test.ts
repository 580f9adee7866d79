import { describe, expect, it } from 'vitest';
import { toCurl } from '../model/exchange.ts';
import { createRedactor } from './redact.ts';
import { waitAfter429 } from './retryAfter.ts';

describe('createRedactor', () => {
  it('when a known secret appears anywhere, then its label replaces it', () => {
    const r = createRedactor();
    r.addSecret('tok_123456789', '$CONFORMANCE_TOKEN');
    expect(r.text('a tok_123456789 b')).toBe('a $CONFORMANCE_TOKEN b');
    expect(r.headers({ Authorization: 'Bearer tok_123456789' })).toEqual({
      Authorization: 'Bearer $CONFORMANCE_TOKEN',
    });
  });

  it('when an unknown credential is in an auth header, then only the scheme is kept', () => {
    expect(createRedactor().headers({ authorization: 'Bearer whatever', cookie: 'a=b', 'x-other': 'kept' })).toEqual({
      authorization: 'Bearer <redacted>',
      cookie: '<redacted>',
      'x-other': 'kept',
    });
  });

  it('when JSON carries secret members, then their values are hidden even in a cut excerpt', () => {
    expect(createRedactor().text('{"signingSecret": "abc\\"def", "name":"x", "refresh_token":"r1"')).toBe(
      '{"signingSecret": "<redacted>", "name":"x", "refresh_token":"<redacted>"',
    );
  });

  it('when a secret is too short to be distinctive, then it is not registered', () => {
    const r = createRedactor();
    r.addSecret('abc', 'X');
    expect(r.text('abc')).toBe('abc');
  });
});

describe('toCurl', () => {
  it('when the request has a redacted token and a body, then the command uses the variable and quotes safely', () => {
    const cmd = toCurl({
      request: {
        method: 'POST',
        url: 'http://h/api/events',
        headers: { authorization: 'Bearer $CONFORMANCE_TOKEN', 'content-type': 'application/json' },
        body: `{"title":"it's"}`,
        bodyBytes: 16,
        truncated: false,
      },
    });
    expect(cmd).toBe(
      `curl -sS -i -X POST 'http://h/api/events' -H "authorization: Bearer $CONFORMANCE_TOKEN" -H 'content-type: application/json' --data-binary '{"title":"it'\\''s"}'`,
    );
  });
});

describe('retryAfter', () => {
  it('when Retry-After is seconds or an HTTP date, then the wait is that long (the client library parses it)', () => {
    const policy = { capMs: 60_000, random: () => 0 };
    expect(waitAfter429('3', 0, 0, policy)).toBe(3000);
    expect(waitAfter429('Thu, 01 Jan 1970 00:00:05 GMT', 0, 1000, policy)).toBe(4000);
    // Unreadable: the default backoff, never a hot loop.
    expect(waitAfter429('soon', 0, 0, policy)).toBe(1000);
    expect(waitAfter429('1.5', 0, 0, policy)).toBe(1000);
  });

  it('when the server keeps throttling, then later waits back off beyond Retry-After', () => {
    const policy = { capMs: 60_000, random: () => 1 };
    expect(waitAfter429('1', 0, 0, policy)).toBe(1000);
    expect(waitAfter429('1', 2, 0, policy)).toBe(1000 + 4000);
    expect(waitAfter429(undefined, 0, 0, policy)).toBe(2000);
  });
});
