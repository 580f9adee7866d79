// Account tokens for the checks: minted with the admin token in the suite's account, deleted
// at the end of the run (and earlier by the check that no longer needs them). Every signing
// secret and token value the target hands out is watched: it must never be shown again
// (TOKEN-002, DEC-AUTH-006).

import type { HttpResponse } from '../http/httpClient.ts';
import { CheckFailure, CheckUnobservable } from '../model/failure.ts';
import { targetMessage } from '../model/targetMessage.ts';
import { forgetProblems } from './assert.ts';
import type { CheckContext } from '../engine/runtime/context.ts';
import { variantsOf } from '../model/variants.ts';
import { listUserOrganisations } from './organisations.ts';

export interface TokenAnswer {
  id?: unknown;
  name?: unknown;
  roles?: unknown;
  callBackUrl?: unknown;
  created?: unknown;
  signingSecret?: unknown;
  token?: unknown;
  hasSigningSecret?: unknown;
  [member: string]: unknown;
}

export interface TokenBody {
  name?: string;
  roles?: string[];
  callBackUrl?: string;
  /** In the target's shape: build it with narrowedTo. */
  apiTokenFilter?: Record<string, string[]>;
  [member: string]: unknown;
}

/** What a narrowed token may see; an axis left out takes the target's default. */
export interface TokenScope {
  organisations?: readonly string[];
  statuses?: readonly string[];
}

/**
 * The `apiTokenFilter` member narrowing a token to `scope`, in the target's structure (the
 * interface leaves it open; see the target variants). Throws CheckUnobservable when the target's
 * tokens cannot be narrowed through the API: what the check wanted to see cannot be observed there.
 */
export function narrowedTo(ctx: Pick<CheckContext, 'config'>, scope: TokenScope): Pick<TokenBody, 'apiTokenFilter'> {
  const filter = variantsOf(ctx).tokenFilter;
  if (filter === 'unsupported')
    throw new CheckUnobservable(
      'the target narrows no token to organisations or statuses through the API (the structure of apiTokenFilter is not shown by the interface), so this cannot be observed here',
    );
  return {
    apiTokenFilter: {
      ...(scope.organisations ? { [filter.organisationsField]: [...scope.organisations] } : {}),
      ...(scope.statuses ? { [filter.statusesField]: [...scope.statuses] } : {}),
    },
  };
}

export interface MintedToken {
  id: string;
  /** The bearer value (DEC-AUTH-006 `token` member), when the target returned one. */
  bearer: string | undefined;
  /** The signing secret of the creation answer, when one was returned. */
  secret: string | undefined;
  answer: TokenAnswer;
  response: HttpResponse;
}

export function accountId(ctx: CheckContext): string {
  const id = ctx.config.accountId;
  if (!id)
    throw new Error(
      `${ctx.check.id} manages tokens; declare needs: ['admin'] so the runner skips it without --account-id`,
    );
  return id;
}

export function tokensPath(ctx: CheckContext, tokenId?: string, suffix = ''): string {
  const base = `/accounts/${encodeURIComponent(accountId(ctx))}/tokens`;
  return tokenId === undefined ? base : `${base}/${encodeURIComponent(tokenId)}${suffix}`;
}

function label(res: HttpResponse): string {
  const url = new URL(res.url);
  return `${res.exchange.request.method} ${url.pathname}`;
}

/**
 * The spec allows only `https:` callback URLs (DEC-HOOK-002). A target configured for local
 * development accepts the suite's `http:` receiver and echoes that URL back; that echo is the
 * suite's own doing, not a conformance problem. Every other spec problem is asserted.
 */
export function assertTokenAnswerConforms(res: HttpResponse, requirements?: readonly string[]): void {
  dropOwnCallbackProblems(res);
  res.assertConforms(requirements);
}

/** Forgets the `http:` callBackUrl echo (see assertTokenAnswerConforms); other problems stay deferred. */
export function dropOwnCallbackProblems(res: HttpResponse): void {
  forgetProblems(
    res,
    (p) =>
      p.pointer !== undefined &&
      /\/callBackUrl$/.test(p.pointer) &&
      typeof p.received === 'string' &&
      p.received.startsWith('http://'),
  );
}

/**
 * The id of a token in an answer body: the member the target uses for it (the interface names
 * none; see the target variants), or undefined when the body has none.
 */
export function tokenIdOf(ctx: Pick<CheckContext, 'config'>, body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const id = (body as Record<string, unknown>)[variantsOf(ctx).tokenIdField];
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** The answer body as a token, or a failure naming the requirements. */
export function tokenAnswer(res: HttpResponse, requirements?: readonly string[]): TokenAnswer {
  const body = res.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new CheckFailure({
      message: `${label(res)} did not answer a token object`,
      received: res.text.slice(0, 300),
      expected: 'a JSON object with the token',
      requirements,
      exchanges: [res.exchange],
    });
  }
  return body as TokenAnswer;
}

function watch(ctx: CheckContext, answer: TokenAnswer, what: string): void {
  if (typeof answer.signingSecret === 'string') ctx.watchSecret(answer.signingSecret, `signingSecret ${what}`);
  if (typeof answer.token === 'string') ctx.watchSecret(answer.token, `token value ${what}`);
}

/** Watch the secrets an answer holds (call on every token answer a check receives). */
export function watchAnswer(ctx: CheckContext, res: HttpResponse, what: string): void {
  if (typeof res.body === 'object' && res.body !== null && !Array.isArray(res.body))
    watch(ctx, res.body as TokenAnswer, what);
}

export interface MintOptions {
  /** Requirements a failure to create is about (default: all of the check's). */
  requirements?: readonly string[];
  /** Delete it when the run ends (default true). */
  cleanup?: boolean;
}

/**
 * Creates a token in the suite's account with the admin token. The name carries the run id.
 * Fails unless the target answers 2xx with an id; a refused `http:` callback URL gets a hint.
 */
export async function mintToken(
  ctx: CheckContext,
  body: TokenBody = {},
  options: MintOptions = {},
): Promise<MintedToken> {
  const request: TokenBody = { name: ctx.tag('token'), roles: ['ROLE_EXTERNAL_USER'], ...body };
  const res = await ctx.http.post(tokensPath(ctx), { token: 'admin', json: request, validate: 'defer' });
  watchAnswer(ctx, res, `of ${request.name}`);
  dropOwnCallbackProblems(res);
  if (res.status < 200 || res.status >= 300) {
    // The target's own reason first; the https hint only when it gives none or names the scheme.
    const said = targetMessage(res.exchange);
    const insecure = typeof request.callBackUrl === 'string' && request.callBackUrl.startsWith('http://');
    const hint =
      insecure && res.status === 400 && (said === undefined || /https|scheme|protocol|secure|tls/i.test(said))
        ? `; the target may accept only https: callback URLs (DEC-HOOK-002): run with --receiver-tls (and make the target trust the certificate) or --callback-url https://… (a tunnel)`
        : '';
    throw new CheckFailure({
      message: `${label(res)} answered ${res.status}: could not create a token${said === undefined ? '' : `: "${said}"`}${hint}`,
      received: res.status,
      expected: '201 with the token',
      pointer: 'status',
      requirements: options.requirements,
      exchanges: [res.exchange],
    });
  }
  const answer = tokenAnswer(res, options.requirements);
  const id = tokenIdOf(ctx, answer);
  if (id === undefined) {
    const field = variantsOf(ctx).tokenIdField;
    throw new CheckFailure({
      message: `${label(res)} answered a token without its id (member ${field}, the token id field in force)`,
      received: answer,
      expected: `a ${field} member`,
      pointer: `/${field}`,
      requirements: options.requirements,
      exchanges: [res.exchange],
    });
  }
  if (options.cleanup !== false) {
    const path = tokensPath(ctx, id);
    ctx.cleanup.add(`delete token ${request.name}`, async (http) => {
      const res = await http.delete(path, { token: 'admin', validate: false });
      if (res.status >= 300 && res.status !== 404) throw new Error(`DELETE ${path} answered ${res.status}`);
    });
  }
  return {
    id,
    bearer: typeof answer.token === 'string' ? answer.token : undefined,
    secret: typeof answer.signingSecret === 'string' ? answer.signingSecret : undefined,
    answer,
    response: res,
  };
}

export async function updateToken(ctx: CheckContext, tokenId: string, body: TokenBody): Promise<HttpResponse> {
  const res = await ctx.http.put(tokensPath(ctx, tokenId), { token: 'admin', json: body, validate: 'defer' });
  watchAnswer(ctx, res, `after PUT ${JSON.stringify(Object.keys(body))}`);
  dropOwnCallbackProblems(res);
  return res;
}

export async function rotateSecret(ctx: CheckContext, tokenId: string): Promise<HttpResponse> {
  const res = await ctx.http.post(tokensPath(ctx, tokenId, '/rotate-secret'), { token: 'admin', validate: 'defer' });
  watchAnswer(ctx, res, 'after rotate-secret');
  dropOwnCallbackProblems(res);
  return res;
}

/**
 * DELETE with the admin token as soon as a check no longer needs the token (its webhook would
 * otherwise hear of later checks' items). Housekeeping: a 404 is fine, and the answer's
 * conformance is asserted by tokens.delete, not here.
 */
export async function deleteTokenQuietly(ctx: CheckContext, tokenId: string): Promise<void> {
  const res = await ctx.http.delete(tokensPath(ctx, tokenId), { token: 'admin', validate: false });
  if (res.status >= 300 && res.status !== 404)
    ctx.note(`DELETE token ${tokenId} answered ${res.status}; it is deleted again at the end of the run`);
}

/** The organisations of the suite's account (--account-id), in the order the target lists them. */
export async function suiteOrganisations(ctx: CheckContext): Promise<string[]> {
  const account = accountId(ctx);
  return (await listUserOrganisations(ctx)).filter((o) => o.accountId === account).map((o) => o.userorganisation);
}

/**
 * Two organisations of the suite's account for an organisation-filter check, or undefined with
 * the reason noted as unverified for `requirements`.
 */
export async function twoOrganisations(
  ctx: CheckContext,
  requirements: readonly string[],
): Promise<[string, string] | undefined> {
  const orgs = await suiteOrganisations(ctx);
  if (orgs.length >= 2) return [orgs[0]!, orgs[1]!];
  ctx.unverified(
    requirements,
    `account ${accountId(ctx)} has ${orgs.length} organisation(s); an organisation filter needs two (an admin token of an account with two organisations)`,
  );
  return undefined;
}
