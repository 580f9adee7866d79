// Discovers what the interface leaves open about account tokens: the member of a token object
// that holds its id (tries the candidate values as `{tokenId}` in `PUT …/tokens/{tokenId}` until
// one is accepted), and whether tokens are narrowed with our structure of `apiTokenFilter`.

import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import type { ProbeContext, ProbeFinding } from './probe.ts';
import { finding, is2xx } from './probe.ts';
import { isObject } from '../../../spec/json.ts';
import { DEFAULT_VARIANTS } from '../../model/variants.ts';
import type { TokenFilter } from '../../model/variants.ts';

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

/**
 * Discovers whether tokens can be narrowed with our structure of `apiTokenFilter` (the interface
 * does not show it): creates a token narrowed to `organisation` and approved items. A 4xx, or an
 * answer whose filter lacks the members sent, means the target's tokens cannot be narrowed that
 * way: 'unsupported', unless the vendor declares its own member names.
 */
export async function probeTokenFilter(
  ctx: ProbeContext,
  organisation: string | undefined,
  tokenIdField: string,
): Promise<ProbeFinding> {
  const out = finding();
  const accountId = ctx.config.accountId;
  if (!ctx.config.tokens.admin || !accountId) {
    out.notes.tokenFilter = 'needs --admin-token and --account-id; the default applies';
    return out;
  }
  const { organisationsField, statusesField } = DEFAULT_VARIANTS.tokenFilter as Exclude<TokenFilter, 'unsupported'>;
  const apiTokenFilter = {
    ...(organisation ? { [organisationsField]: [organisation] } : {}),
    [statusesField]: [WORKFLOW_STATUS.approved],
  };
  const base = `/accounts/${encodeURIComponent(accountId)}/tokens`;
  const sent = `POST ${base} with apiTokenFilter ${JSON.stringify(apiTokenFilter)}`;
  const res = await ctx.http.post(base, {
    token: 'admin',
    json: { name: ctx.tag('probe-filter'), roles: ['ROLE_EXTERNAL_USER'], apiTokenFilter },
    validate: false,
  });
  const id = isObject(res.body) ? res.body[tokenIdField] : undefined;
  if (is2xx(res.status) && typeof id === 'string' && id !== '')
    ctx.cleanup('delete the token filter probe', async () => {
      await ctx.http.delete(`${base}/${encodeURIComponent(id)}`, { token: 'admin', validate: false });
    });
  if (res.status >= 400 && res.status < 500) {
    out.found.tokenFilter = 'unsupported';
    out.notes.tokenFilter = `${sent} answered ${res.status}; declare the members of apiTokenFilter if the target has others`;
    return out;
  }
  if (!is2xx(res.status)) {
    out.notes.tokenFilter = `${sent} answered ${res.status}; the default applies`;
    return out;
  }
  const echo = isObject(res.body) ? res.body.apiTokenFilter : undefined;
  const dropped = isObject(echo) ? Object.keys(apiTokenFilter).filter((k) => !(k in echo)) : [];
  if (dropped.length > 0) {
    out.found.tokenFilter = 'unsupported';
    out.notes.tokenFilter = `${sent} answered a filter without ${dropped.join(', ')}; declare the members of apiTokenFilter if the target has others`;
    return out;
  }
  out.found.tokenFilter = DEFAULT_VARIANTS.tokenFilter;
  out.notes.tokenFilter = `${sent} answered ${res.status}`;
  return out;
}
