import { describe, expect, it } from 'vitest';
import { issueAccessToken, verifyAccessToken } from './accessToken.ts';

const claims = {
  sub: '11111111-1111-4111-8111-111111111111',
  sid: '22222222-2222-4222-8222-222222222222',
  acc: 'amsterdam',
  roles: ['ROLE_ADMIN'],
};

describe('session access tokens [SESSION-003]', () => {
  it('when verified within the hour with the same key, then the claims come back; at the hour or with another key, null', async () => {
    const start = Date.UTC(2026, 10, 20, 9, 0, 0);
    const key = { secret: 's'.repeat(40), now: () => start };
    const token = await issueAccessToken(key, claims);
    expect(await verifyAccessToken(key, token)).toEqual(claims);
    expect(await verifyAccessToken({ ...key, now: () => start + 3_599_999 }, token)).toEqual(claims);
    expect(await verifyAccessToken({ ...key, now: () => start + 3_600_000 }, token)).toBeNull();
    expect(await verifyAccessToken({ ...key, secret: 't'.repeat(40) }, token)).toBeNull();
    expect(await verifyAccessToken(key, `${token}x`)).toBeNull();
  });
});
