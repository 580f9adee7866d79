// Discovers the authentication choices the interface leaves open: the statuses for missing and
// invalid credentials and for an insufficient role, whether such error answers carry a JSON
// body, the field names of the sign-in body and the HTTP method of /auth/logout (the last two
// only with --session-user/--session-password).

import type { ProbeContext, ProbeFinding } from './probe.ts';
import { finding, is2xx } from './probe.ts';
import { isObject } from '../../../spec/json.ts';
import type { TargetVariants } from '../../model/variants.ts';

const INVALID_TOKEN = 'conformance-discovery-invalid-token';

export async function probeCredentials(ctx: ProbeContext): Promise<ProbeFinding> {
  const out = finding();
  const missing = await ctx.http.get('/events', { token: 'none', query: { size: 1 }, validate: false });
  const invalid = await ctx.http.get('/events', {
    token: { bearer: INVALID_TOKEN },
    query: { size: 1 },
    validate: false,
  });
  const statuses: Partial<TargetVariants['credentialStatuses']> = {};
  const seen = [`missing → ${missing.status}`, `invalid → ${invalid.status}`];
  if (missing.status >= 400 && missing.status < 500) statuses.missing = missing.status;
  if (invalid.status >= 400 && invalid.status < 500) statuses.invalid = invalid.status;
  const accountId = ctx.config.accountId;
  if (accountId && ctx.config.tokens.consumer) {
    // An admin-only operation that changes nothing even if it were allowed: a token that does not exist.
    const path = `/accounts/${encodeURIComponent(accountId)}/tokens/${ctx.tag('probe-no-such-token')}`;
    const forbidden = await ctx.http.delete(path, { token: 'consumer', validate: false });
    seen.push(`consumer token on an admin operation → ${forbidden.status}`);
    if (forbidden.status >= 400 && forbidden.status < 500 && forbidden.status !== 404)
      statuses.forbidden = forbidden.status;
  }
  if (Object.keys(statuses).length > 0) out.found.credentialStatuses = statuses as TargetVariants['credentialStatuses'];
  out.notes.credentialStatuses = seen.join(', ');
  if (missing.status >= 400) {
    out.found.errorBodies = isObject(missing.body) ? 'json' : 'other';
    out.notes.errorBodies = `the ${missing.status} answer to a request without credentials is ${isObject(missing.body) ? 'a JSON object' : `${missing.headers['content-type'] ?? 'without content type'}`}`;
  }
  return out;
}

const SIGN_IN_FIELDS: TargetVariants['signIn'][] = [
  { userField: 'username', passwordField: 'password' },
  { userField: 'user', passwordField: 'password' },
  { userField: 'email', passwordField: 'password' },
  { userField: 'login', passwordField: 'password' },
];

const LOGOUT_METHODS: TargetVariants['logoutMethod'][] = ['POST', 'GET', 'DELETE'];

export async function probeSession(ctx: ProbeContext): Promise<ProbeFinding> {
  const out = finding();
  const { sessionUser, sessionPassword } = ctx.config.tokens;
  if (!sessionUser || !sessionPassword) {
    out.notes.signIn = 'needs --session-user and --session-password; the default applies';
    return out;
  }
  let access: string | undefined;
  const tried: string[] = [];
  for (const fields of SIGN_IN_FIELDS) {
    const res = await ctx.http.post('/auth/signin', {
      token: 'none',
      json: { [fields.userField]: sessionUser, [fields.passwordField]: sessionPassword },
      validate: false,
    });
    tried.push(`${fields.userField}/${fields.passwordField} → ${res.status}`);
    if (res.status === 200 && isObject(res.body) && typeof res.body.access_token === 'string') {
      out.found.signIn = fields;
      access = res.body.access_token;
      break;
    }
  }
  out.notes.signIn = tried.join(', ');
  if (!access) return out;
  const methods: string[] = [];
  for (const method of LOGOUT_METHODS) {
    const res = await ctx.http.request(method, '/auth/logout', { token: { bearer: access }, validate: false });
    methods.push(`${method} → ${res.status}`);
    if (is2xx(res.status)) {
      out.found.logoutMethod = method;
      break;
    }
  }
  out.notes.logoutMethod = methods.join(', ');
  return out;
}
