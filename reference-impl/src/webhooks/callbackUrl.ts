// Registration-time check of a token's callBackUrl (DEC-HOOK-002): the 400 a client sees on
// POST/PUT of a token. The DNS step here is a courtesy (an early, clear error); the security
// boundary is the delivery-time guard in ssrfGuard.ts, which re-checks inside the connection.

import { isIP } from 'node:net';
import { checkAddress, systemResolver, type Resolver } from './ssrfGuard.ts';

const CALLBACK_URL_MAX_LENGTH = 2048;

export interface CallbackUrlOptions {
  /** ALLOW_INSECURE_CALLBACKS=1: http: and loopback hosts are accepted, nothing more. */
  allowInsecure?: boolean;
  resolve?: Resolver;
}

export type CallbackUrlResult = { ok: true; url: string } | { ok: false; reason: string };

const DNS_NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME']);

function shown(value: string): string {
  return value.length > 100 ? `${value.slice(0, 100)}…` : value;
}

/**
 * Returns the normalised URL (WHATWG form, e.g. `https://2130706433/` becomes
 * `https://127.0.0.1/`) or a reason sentence fit for the 400's message.
 */
export async function validateCallbackUrl(input: string, options: CallbackUrlOptions = {}): Promise<CallbackUrlResult> {
  const fail = (reason: string): CallbackUrlResult => ({ ok: false, reason: `callBackUrl ${reason}` });
  if (input.length > CALLBACK_URL_MAX_LENGTH)
    return fail(`must be at most ${CALLBACK_URL_MAX_LENGTH} characters (received: ${input.length})`);

  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return fail(`must be an absolute https URL (received: ${shown(input)})`);
  }
  const schemes = options.allowInsecure ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) return fail(`must use https (received: ${url.protocol.slice(0, -1)})`);
  if (url.username !== '' || url.password !== '') return fail('must not contain user info (user:password@)');
  if (url.hostname === '') return fail('must name a host');

  const host = url.hostname.replace(/^\[|\]$/g, '');
  const policy = { allowLoopback: options.allowInsecure === true };
  if (isIP(host) !== 0) {
    const literal = checkAddress(host, policy);
    return literal.ok ? { ok: true, url: url.href } : fail(`host must be a public address: ${literal.reason}`);
  }

  let addresses;
  try {
    addresses = await (options.resolve ?? systemResolver)(host, {});
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== undefined && DNS_NO_SUCH_NAME.has(code)) return fail(`host ${host} does not resolve`);
    // A temporary DNS failure is not the client's fault; delivery re-checks anyway.
    return { ok: true, url: url.href };
  }
  if (addresses.length === 0) return fail(`host ${host} does not resolve`);
  for (const { address } of addresses) {
    const verdict = checkAddress(address, policy);
    if (!verdict.ok) return fail(`host ${host} must resolve to public addresses only: ${verdict.reason}`);
  }
  return { ok: true, url: url.href };
}
