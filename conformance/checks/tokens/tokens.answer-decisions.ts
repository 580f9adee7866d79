import type { HttpResponse } from '../../http/httpClient.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import {
  deleteTokenQuietly,
  mintToken,
  rotateSecret,
  tokenAnswer,
  tokenIdOf,
  tokensPath,
  updateToken,
} from '../../support/tokens.ts';

function expect(
  res: HttpResponse,
  ok: boolean,
  message: string,
  received: unknown,
  expected: unknown,
  requirement: string,
  pointer?: string,
): void {
  if (!ok)
    throw new CheckFailure({
      message,
      received,
      expected,
      pointer,
      requirements: [requirement],
      exchanges: [res.exchange],
    });
}

const noStore = (res: HttpResponse) => /(^|,)\s*no-store\s*(,|$)/i.test(res.headers['cache-control'] ?? '');

export default defineCheck({
  id: 'tokens.answer-decisions',
  title:
    'Token answers as decided: 201, cst_ token value, 43-character secret, hasSigningSecret, Cache-Control: no-store, unknown fields 400, rotate without callBackUrl 409, no role escalation',
  requirements: [
    'DEC-AUTH-009',
    'DEC-AUTH-006',
    'DEC-HOOK-001',
    'DEC-AUTH-007',
    'DEC-HOOK-009',
    'DEC-AUTH-011',
    'DEC-AUTH-010',
    'DEC-AUTH-008',
    'DEC-MISC-002',
  ],
  tags: ['tokens'],
  needs: ['webhook'],
  writes: 'two tokens (deleted at once)',
  dependsOn: ['tokens.create'],
  run: async (ctx) => {
    const hooked = await mintToken(ctx, { callBackUrl: ctx.receiver.endpoint(`${ctx.check.id}.hook`).url });
    const plain = await mintToken(ctx, {});
    try {
      const created = hooked.response;
      expect(
        created,
        created.status === 201,
        `token creation answered ${created.status}`,
        created.status,
        201,
        'DEC-AUTH-009',
        'status',
      );
      expect(
        created,
        typeof hooked.answer.token === 'string' && /^cst_[A-Za-z0-9_-]{43}$/.test(hooked.answer.token),
        "the creation answer's token value is not cst_ and 43 base64url characters",
        hooked.answer.token === undefined ? '(absent)' : `${String(hooked.answer.token).length} characters`,
        'cst_ + 43 base64url characters',
        'DEC-AUTH-006',
        '/token',
      );
      expect(
        created,
        typeof hooked.secret === 'string' && /^[A-Za-z0-9_-]{43}$/.test(hooked.secret),
        'the signingSecret is not 43 base64url characters',
        hooked.secret === undefined ? '(absent)' : `${hooked.secret.length} characters`,
        '43 base64url characters (32 random bytes)',
        'DEC-HOOK-001',
        '/signingSecret',
      );
      expect(
        created,
        hooked.answer.hasSigningSecret === true,
        'a token created with a callBackUrl does not say hasSigningSecret: true',
        hooked.answer.hasSigningSecret,
        true,
        'DEC-AUTH-007',
        '/hasSigningSecret',
      );
      expect(
        plain.response,
        plain.answer.hasSigningSecret === false,
        'a token created without a callBackUrl does not say hasSigningSecret: false',
        plain.answer.hasSigningSecret,
        false,
        'DEC-AUTH-007',
        '/hasSigningSecret',
      );
      expect(
        created,
        noStore(created),
        'the creation answer (it holds secrets) is cacheable',
        created.headers['cache-control'] ?? '(absent)',
        'Cache-Control: no-store',
        'DEC-HOOK-009',
        'header/Cache-Control',
      );

      expect(
        created,
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(hooked.id),
        'the token id is not a UUID',
        hooked.id,
        'a UUID',
        'DEC-MISC-002',
        '/id',
      );
      const put = await updateToken(ctx, hooked.id, { name: ctx.tag('renamed') });
      const kept = tokenAnswer(put);
      const same = (k: string) => JSON.stringify(kept[k]) === JSON.stringify(hooked.answer[k]);
      expect(
        put,
        ['roles', 'callBackUrl', 'apiTokenFilter', 'useOptimizedImages', 'created'].every(same),
        'a PUT of only the name changed other fields',
        Object.fromEntries(['roles', 'callBackUrl', 'apiTokenFilter', 'useOptimizedImages'].map((k) => [k, kept[k]])),
        Object.fromEntries(
          ['roles', 'callBackUrl', 'apiTokenFilter', 'useOptimizedImages'].map((k) => [k, hooked.answer[k]]),
        ),
        'DEC-AUTH-008',
      );
      assertStatus(put, 200, { requirements: ['DEC-HOOK-009'] });
      put.assertConforms(['DEC-HOOK-009']);
      expect(
        put,
        noStore(put),
        'the update answer is cacheable',
        put.headers['cache-control'] ?? '(absent)',
        'Cache-Control: no-store',
        'DEC-HOOK-009',
        'header/Cache-Control',
      );
      expect(
        put,
        tokenAnswer(put).hasSigningSecret === true,
        'after a rename the token does not say hasSigningSecret: true',
        tokenAnswer(put).hasSigningSecret,
        true,
        'DEC-AUTH-007',
        '/hasSigningSecret',
      );
      const rotated = await rotateSecret(ctx, hooked.id);
      assertStatus(rotated, 200, { requirements: ['DEC-HOOK-009'] });
      rotated.assertConforms(['DEC-HOOK-009']);
      expect(
        rotated,
        noStore(rotated),
        'the rotate-secret answer is cacheable',
        rotated.headers['cache-control'] ?? '(absent)',
        'Cache-Control: no-store',
        'DEC-HOOK-009',
        'header/Cache-Control',
      );

      const refused = await rotateSecret(ctx, plain.id);
      expect(
        refused,
        refused.status === 409,
        `rotate-secret on a token without callBackUrl answered ${refused.status}`,
        refused.status,
        409,
        'DEC-AUTH-011',
        'status',
      );
      refused.assertConforms(['DEC-AUTH-011']);

      const unknown = await ctx.http.post(tokensPath(ctx), {
        token: 'admin',
        json: {
          name: ctx.tag('unknown field'),
          roles: ['ROLE_EXTERNAL_USER'],
          callbackUrl: 'https://example.com/typo',
        },
        validate: 'defer',
      });
      const stray = tokenIdOf(ctx, unknown.body);
      if (unknown.status < 300 && stray !== undefined) await deleteTokenQuietly(ctx, stray);
      expect(
        unknown,
        unknown.status === 400,
        `a token body with an unknown member (callbackUrl) answered ${unknown.status}`,
        unknown.status,
        400,
        'DEC-AUTH-009',
        'status',
      );
      unknown.assertConforms(['DEC-AUTH-009']);

      const escalate = await ctx.http.post(tokensPath(ctx), {
        token: 'admin',
        json: { name: ctx.tag('escalation'), roles: ['ROLE_SUPER_ADMIN'] },
        validate: 'defer',
      });
      const escalated = tokenIdOf(ctx, escalate.body);
      if (escalate.status < 300 && escalated !== undefined) await deleteTokenQuietly(ctx, escalated);
      expect(
        escalate,
        escalate.status === 403 || escalate.status === 400,
        `an admin creating a ROLE_SUPER_ADMIN token answered ${escalate.status}`,
        escalate.status,
        '403 or 400',
        'DEC-AUTH-010',
        'status',
      );
      escalate.assertConforms(['DEC-AUTH-010']);
    } finally {
      await deleteTokenQuietly(ctx, hooked.id);
      await deleteTokenQuietly(ctx, plain.id);
    }
  },
});
