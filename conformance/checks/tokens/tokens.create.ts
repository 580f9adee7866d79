import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { assertTokenAnswerConforms, mintToken } from '../../support/tokens.ts';
import type { MintedToken } from '../../support/tokens.ts';

function expectMember(
  token: MintedToken,
  member: string,
  ok: (v: unknown) => boolean,
  expected: string,
  requirements: readonly string[],
): void {
  const value = token.answer[member];
  if (ok(value)) return;
  throw new CheckFailure({
    message: `the token creation answer's ${member} is ${value === undefined ? 'absent' : JSON.stringify(value)}`,
    received: value === undefined ? '(absent)' : value,
    expected,
    pointer: `/${member}`,
    requirements,
    exchanges: [token.response.exchange],
  });
}

export default defineCheck({
  id: 'tokens.create',
  title:
    'POST /accounts/{accountId}/tokens creates a token (name, roles, created); the signingSecret comes only with a callBackUrl; the new token is a bearer',
  requirements: ['TOKEN-003', 'TOKEN-001', 'TOKEN-002', 'AUTH-006', 'AUTH-001'],
  tags: ['tokens'],
  needs: ['webhook'],
  writes: 'two tokens in --account-id (deleted at the end)',
  run: async (ctx) => {
    // Without a callback URL: a token, no secret.
    const plainName = ctx.tag('plain token');
    const plain = await mintToken(
      ctx,
      { name: plainName, roles: ['ROLE_EXTERNAL_USER'] },
      { requirements: ['TOKEN-003'] },
    );
    assertStatus(plain.response, [200, 201], { requirements: ['TOKEN-003'] });
    expectMember(plain, 'name', (v) => v === plainName, JSON.stringify(plainName), ['TOKEN-003']);
    expectMember(
      plain,
      'roles',
      (v) => Array.isArray(v) && v.includes('ROLE_EXTERNAL_USER'),
      'roles holding ROLE_EXTERNAL_USER',
      ['TOKEN-003', 'AUTH-006'],
    );
    expectMember(
      plain,
      'created',
      (v) => typeof v === 'string' && !Number.isNaN(Date.parse(v)),
      'a creation timestamp',
      ['TOKEN-003'],
    );
    expectMember(plain, 'signingSecret', (v) => v === undefined, 'no signingSecret: the token has no callBackUrl', [
      'TOKEN-002',
      'TOKEN-003',
    ]);
    assertTokenAnswerConforms(plain.response, ['TOKEN-001']);

    // With a callback URL (and the admin role): the secret, once.
    const endpoint = ctx.receiver.endpoint(`${ctx.check.id}.hook`);
    const hooked = await mintToken(
      ctx,
      { name: ctx.tag('hook token'), roles: ['ROLE_ADMIN'], callBackUrl: endpoint.url },
      { requirements: ['TOKEN-003'] },
    );
    expectMember(
      hooked,
      'signingSecret',
      (v) => typeof v === 'string' && v.length > 0,
      'a signingSecret: a callBackUrl was given',
      ['TOKEN-003', 'TOKEN-002'],
    );
    expectMember(hooked, 'callBackUrl', (v) => v === endpoint.url, endpoint.url, ['TOKEN-003']);
    expectMember(hooked, 'roles', (v) => Array.isArray(v) && v.includes('ROLE_ADMIN'), 'roles holding ROLE_ADMIN', [
      'AUTH-006',
    ]);
    assertTokenAnswerConforms(hooked.response, ['TOKEN-001']);
    ctx.verified(['TOKEN-003', 'TOKEN-001', 'TOKEN-002', 'AUTH-006']);

    // The account token is a bearer token (the value is our decision's `token` member, DEC-AUTH-006).
    if (!plain.bearer) {
      ctx.unverified(
        ['AUTH-001'],
        'the creation answer carries no token value (DEC-AUTH-006 `token`), so the suite cannot call with the new token',
      );
      return;
    }
    const res = await ctx.http.get('/events', { token: { bearer: plain.bearer }, query: { size: 1 } });
    assertStatus(res, 200, {
      requirements: ['AUTH-001'],
      message: `GET /events with the token just created answered ${res.status}`,
    });
  },
});
