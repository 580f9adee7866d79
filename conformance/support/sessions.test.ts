import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../http/httpClient.ts';
import { CheckFailure } from '../model/failure.ts';
import { jwtClaims, sessionPair } from './sessions.ts';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const response = (status: number, body: unknown) =>
  ({
    status,
    body,
    url: 'http://t/api/auth/signin',
    exchange: { request: { method: 'POST' } },
  }) as unknown as HttpResponse;

describe('jwtClaims', () => {
  it('when the token is a JWT, then its payload claims are read (not verified)', () => {
    expect(jwtClaims(`${b64({ alg: 'HS256' })}.${b64({ iat: 100, exp: 3700 })}.sig`)).toEqual({ iat: 100, exp: 3700 });
  });

  it('when the token is opaque or its payload is not a JSON object, then there are no claims', () => {
    expect(jwtClaims('rt_opaque')).toBeUndefined();
    expect(jwtClaims(`a.${b64([1, 2])}.c`)).toBeUndefined();
    expect(jwtClaims('a.!!!.c')).toBeUndefined();
  });
});

describe('sessionPair', () => {
  it('when the answer has the three members, then it is the pair', () => {
    expect(
      sessionPair(response(200, { access_token: 'a.b.c', refresh_token: 'r', expires_in: 3600 }), ['SESSION-001']),
    ).toMatchObject({ expires_in: 3600 });
  });

  it('when a member is missing or the status is not 200, then the failure names what is missing', () => {
    const missing = (() => {
      try {
        sessionPair(response(200, { access_token: 'a.b.c', expires_in: '3600' }), ['SESSION-001']);
      } catch (error) {
        return error as CheckFailure;
      }
    })();
    expect(missing?.message).toContain('without refresh_token, expires_in');
    expect(missing?.requirements).toEqual(['SESSION-001']);
    expect(() => sessionPair(response(401, {}), ['SESSION-001'])).toThrow('answered 401');
  });
});
