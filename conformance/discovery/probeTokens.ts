// Discovers the member of a token object that holds its id (the interface names none): creates
// a token with the admin token, then tries the candidate values as `{tokenId}` in
// `PUT /accounts/{accountId}/tokens/{tokenId}` until one is accepted.

import type { ProbeContext, ProbeFinding } from './probe.ts';
import { finding, is2xx, isObject } from './probe.ts';

/** Members that are never the id: named by the interface, or secrets. */
const NOT_ID = new Set([
  'name',
  'roles',
  'callBackUrl',
  'signingSecret',
  'created',
  'token',
  'apiTokenFilter',
  'filter',
]);

export async function probeTokenIdField(ctx: ProbeContext): Promise<ProbeFinding> {
  const out = finding();
  const accountId = ctx.config.accountId;
  if (!ctx.config.tokens.admin || !accountId) {
    out.notes.tokenIdField = 'needs --admin-token and --account-id; the default applies';
    return out;
  }
  const base = `/accounts/${encodeURIComponent(accountId)}/tokens`;
  const name = ctx.tag('probe-token');
  const res = await ctx.http.post(base, {
    token: 'admin',
    json: { name, roles: ['ROLE_EXTERNAL_USER'] },
    validate: false,
  });
  if (!is2xx(res.status) || !isObject(res.body)) {
    out.notes.tokenIdField = `POST ${base} answered ${res.status}; the default applies`;
    return out;
  }
  const answer = res.body;
  const preferred = ['id', 'tokenId', 'token_id', 'uuid'];
  const candidates = [
    ...preferred.filter((k) => k in answer),
    ...Object.keys(answer).filter((k) => !preferred.includes(k) && !NOT_ID.has(k)),
  ].filter((k) => typeof answer[k] === 'string' && answer[k] !== '');
  const tried: string[] = [];
  for (const field of candidates) {
    const path = `${base}/${encodeURIComponent(answer[field] as string)}`;
    const put = await ctx.http.put(path, { token: 'admin', json: { name: `${name}-renamed` }, validate: false });
    tried.push(`${field} → PUT ${put.status}`);
    if (!is2xx(put.status)) continue;
    ctx.cleanup(`delete token ${name}`, async () => {
      await ctx.http.delete(path, { token: 'admin', validate: false });
    });
    out.found.tokenIdField = field;
    out.notes.tokenIdField = `the value of ${field} addresses the token (${tried.join(', ')})`;
    return out;
  }
  out.notes.tokenIdField = `no member of the creation answer addresses the token (${tried.join(', ') || 'no string members'}); the default applies`;
  return out;
}
