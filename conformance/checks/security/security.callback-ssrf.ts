import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { deleteTokenQuietly, mintToken, tokenIdOf, tokensPath, updateToken } from '../../support/tokens.ts';

/** Callback URLs no target should call (DEC-HOOK-002; OWASP API7, server-side request forgery). Loopback is left out: a test deployment may allow it for the suite's receiver. */
const REFUSED = [
  'https://169.254.169.254/latest/meta-data/',
  'https://10.0.0.1/hook',
  'https://192.168.1.10/hook',
  'https://[fd00::1]/hook',
  'https://100.64.0.1/hook',
  'https://0.0.0.0/hook',
  'https://user:secret@hooks.example.com/hook',
  'ftp://hooks.example.com/hook',
  'not a url',
];

export default defineCheck({
  id: 'security.callback-ssrf',
  title:
    'A callBackUrl naming a private, link-local, metadata or otherwise non-public address, with user info, or not http(s), is refused with 400 on create and update',
  requirements: ['DEC-HOOK-002'],
  tags: ['security', 'tokens', 'webhooks'],
  needs: ['webhook'],
  writes: 'one token (deleted at once); none for the refused URLs unless the target accepts them (then deleted)',
  run: async (ctx) => {
    const token = await mintToken(ctx, {});
    try {
      for (const url of REFUSED) {
        const created = await ctx.http.post(tokensPath(ctx), {
          token: 'admin',
          json: { name: ctx.tag('ssrf'), roles: ['ROLE_EXTERNAL_USER'], callBackUrl: url },
          validate: 'defer',
        });
        const stray = tokenIdOf(ctx, created.body);
        if (created.status < 300 && stray !== undefined) await deleteTokenQuietly(ctx, stray);
        const updated = await updateToken(ctx, token.id, { callBackUrl: url });
        for (const [res, what] of [
          [created, 'create'],
          [updated, 'update'],
        ] as const) {
          if (res.status !== 400) {
            throw new CheckFailure({
              message: `token ${what} with callBackUrl ${url} answered ${res.status}`,
              received: res.status,
              expected: 400,
              pointer: 'status',
              exchanges: [res.exchange],
            });
          }
          res.assertConforms();
        }
      }
    } finally {
      await deleteTokenQuietly(ctx, token.id);
    }
  },
});
