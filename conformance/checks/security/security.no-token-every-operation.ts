import { randomUUID } from 'node:crypto';
import type { HttpResponse } from '../../http/httpClient.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { acknowledge } from '../../support/assert.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

type Operation = { security?: unknown[]; operationId?: string };

/** Placeholder values for path parameters: well-formed, and naming nothing of anyone's. */
function fill(template: string, ctx: { runId: string; config: { accountId?: string } }): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (name === 'accountId') return ctx.config.accountId ?? `${ctx.runId}-account`;
    if (name === 'feedID') return `${ctx.runId}-feed`;
    if (name === 'filename') return `${ctx.runId}.png`;
    return randomUUID();
  });
}

export default defineCheck({
  id: 'security.no-token-every-operation',
  title:
    'Every operation that needs a bearer token refuses a request without one, or with an unknown one (401 with WWW-Authenticate: Bearer), before doing anything',
  requirements: ['AUTH-002', 'DEC-ERR-002'],
  tags: ['security', 'auth'],
  run: async (ctx) => {
    const doc = ctx.spec.document as { paths: Record<string, Record<string, Operation>>; security?: unknown[] };
    const operations: { method: string; template: string; path: string }[] = [];
    let skipped = 0;
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const security = op.security ?? doc.security ?? [];
        if (security.length === 0) continue; // public by the spec: health, sign-in, refresh
        // The consumer profile promises not to write: a broken target might act on an unauthenticated write.
        if (method !== 'get' && ctx.config.profile === 'consumer') {
          skipped++;
          continue;
        }
        operations.push({ method: method.toUpperCase(), template, path: fill(template, ctx) });
      }
    }
    const unknown = { bearer: `${ctx.runId}-not-a-token-${randomUUID()}` };
    let decision: CheckFailure | undefined;
    const refusedWith: Record<string, number> = {};
    for (const op of operations) {
      for (const token of ['none', unknown] as const) {
        const res: HttpResponse = await ctx.http.request(op.method, op.path, { token, validate: 'defer' });
        const what = `${op.method} ${op.template} ${token === 'none' ? 'without a token' : 'with an unknown token'}`;
        if (res.status < 400 || res.status >= 500) {
          throw new CheckFailure({
            message: `${what} answered ${res.status}: every call carries a valid bearer token`,
            received: res.status,
            expected: '401',
            pointer: 'status',
            requirements: ['AUTH-002'],
            exchanges: [res.exchange],
          });
        }
        refusedWith[res.status] = (refusedWith[res.status] ?? 0) + 1;
        try {
          if (res.status !== 401)
            throw new CheckFailure({
              message: `${what} answered ${res.status}, expected 401 (DEC-ERR-002)`,
              received: res.status,
              expected: 401,
              pointer: 'status',
              requirements: ['DEC-ERR-002'],
              exchanges: [res.exchange],
            });
          if (!/^Bearer\b/i.test(res.headers['www-authenticate'] ?? ''))
            throw new CheckFailure({
              message: `${what}: the 401 has no WWW-Authenticate: Bearer`,
              received: res.headers['www-authenticate'] ?? '(absent)',
              expected: 'Bearer',
              pointer: 'header/WWW-Authenticate',
              requirements: ['DEC-ERR-002'],
              exchanges: [res.exchange],
            });
          res.assertConforms(['DEC-ERR-002']);
        } catch (error) {
          if (!(error instanceof CheckFailure)) throw error;
          decision ??= error;
          acknowledge([res]);
        }
      }
    }
    if (skipped > 0)
      ctx.note(`${skipped} write operations not probed: the consumer profile sends no writes (use --profile full)`);
    ctx.note(
      `${operations.length} operations, each without a token and with an unknown one: ${Object.entries(refusedWith)
        .map(([s, n]) => `${n} × ${s}`)
        .join(', ')}`,
    );
    ctx.verified(['AUTH-002']);
    if (decision) throw decision;
  },
});
