// SSRF guard for webhook delivery (DEC-HOOK-002, OWASP API7): only public unicast addresses.
// The check runs inside the connection itself, so what is checked is what is dialled:
// - names: the Agent's `connect.lookup` checks EVERY resolved address (Node asks for
//   `{ all: true }` when it races address families), so DNS rebinding between registration
//   and delivery gains nothing;
// - literal IPs never reach `lookup`, so the connector checks them before dialling;
// - redirects are not followed (undici `request` never does), so a 3xx cannot point elsewhere.

import dns from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import net from 'node:net';
import tls from 'node:tls';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector } from 'undici';

export type AddressVerdict = { ok: true } | { ok: false; reason: string };

export interface AddressPolicy {
  /**
   * ALLOW_INSECURE_CALLBACKS=1 for local development and tests: loopback (127.0.0.0/8, ::1)
   * becomes reachable, nothing else. Private, link-local (169.254.169.254, the cloud metadata
   * service), CGNAT and the rest stay blocked even then: a dev box still sits in a network.
   */
  allowLoopback?: boolean;
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

function v4FromHextets(high: number, low: number): string {
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/** Classifies one resolved or literal address against the delivery policy. */
export function checkAddress(ip: string, policy: AddressPolicy = {}): AddressVerdict {
  const bare = ip.replace(/^\[|\]$/g, '').split('%')[0]!; // brackets, zone id
  if (!ipaddr.isValid(bare)) return { ok: false, reason: `${ip} is not an IP address` };
  const addr = ipaddr.parse(bare);
  const range = addr.range();
  if (range === 'loopback' && policy.allowLoopback) return { ok: true };

  if (addr.kind() === 'ipv4') {
    return range === 'unicast' ? { ok: true } : { ok: false, reason: `${addr.toString()} is a ${range} address` };
  }

  const v6 = addr as ipaddr.IPv6;
  const p = v6.parts;
  if (range === 'ipv4Mapped')
    return { ok: false, reason: `${v6.toString()} is an IPv4-mapped address (of ${v6.toIPv4Address().toString()})` };
  // 6to4 and Teredo tunnel to an embedded IPv4 address: judge them by it.
  if (range === '6to4' || range === 'teredo') {
    const embedded =
      range === '6to4'
        ? [v4FromHextets(p[1]!, p[2]!)]
        : [v4FromHextets(p[2]!, p[3]!), v4FromHextets(~p[6]! & 0xffff, ~p[7]! & 0xffff)];
    for (const v4 of embedded) {
      const inner = checkAddress(v4);
      if (!inner.ok)
        return { ok: false, reason: `${v6.toString()} is a ${range} address embedding ${v4}: ${inner.reason}` };
    }
    return { ok: true };
  }
  if (range !== 'unicast') return { ok: false, reason: `${v6.toString()} is a ${range} address` };
  // Only 2000::/3 is allocated global unicast; the rest (e.g. ::/96 IPv4-compatible) is not.
  if (!v6.match(GLOBAL_UNICAST_V6)) return { ok: false, reason: `${v6.toString()} is outside global unicast 2000::/3` };
  return { ok: true };
}

/** True when a webhook may be delivered to `ip` under the default (secure) policy. */
export function isPublicUnicast(ip: string): boolean {
  return checkAddress(ip).ok;
}

/** A delivery the address policy refused; permanent, never retried (DEC-HOOK-006). */
export class BlockedAddressError extends Error {
  readonly code = 'ERR_WEBHOOK_BLOCKED_ADDRESS';
  readonly hostname: string;

  constructor(hostname: string, reason: string) {
    super(`blocked address: ${hostname}: ${reason}`);
    this.name = 'BlockedAddressError';
    this.hostname = hostname;
  }
}

/** Name → addresses. Injectable so tests can simulate DNS answers (and rebinding). */
export type Resolver = (hostname: string, options: LookupOptions) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname, options) => dns.promises.lookup(hostname, { ...options, all: true });

/**
 * A `lookup` for net/tls/undici that refuses the whole name when any resolved address is
 * not allowed. Refusing (rather than filtering) keeps a half-internal name from working by luck.
 */
export function createGuardedLookup(
  policy: AddressPolicy = {},
  resolve: Resolver = systemResolver,
): net.LookupFunction {
  return function guardedLookup(hostname, options, callback) {
    const { all: _all, ...resolveOptions } = options ?? {};
    resolve(hostname, resolveOptions).then(
      (addresses) => {
        if (addresses.length === 0) {
          callback(
            Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }),
            '',
            0,
          );
          return;
        }
        for (const { address } of addresses) {
          const verdict = checkAddress(address, policy);
          if (!verdict.ok) {
            callback(new BlockedAddressError(hostname, verdict.reason), '', 0);
            return;
          }
        }
        if (options?.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

export interface GuardedAgentOptions {
  /** ALLOW_INSECURE_CALLBACKS: http: and loopback targets allowed (see AddressPolicy). */
  allowInsecure?: boolean;
  resolve?: Resolver;
  /** Extra trusted CA certificates (PEM), added to Node's root store, e.g. a test receiver's. */
  ca?: string | readonly string[];
  connectTimeoutMs?: number;
}

/**
 * The undici dispatcher every webhook attempt goes through. Scheme, literal-IP and resolved
 * addresses are all checked inside the connector, so no caller can skip the policy.
 */
export function createGuardedAgent(options: GuardedAgentOptions = {}): Agent {
  const policy: AddressPolicy = { allowLoopback: options.allowInsecure === true };
  const extraCa = options.ca === undefined ? [] : typeof options.ca === 'string' ? [options.ca] : [...options.ca];
  const connect = buildConnector({
    lookup: createGuardedLookup(policy, options.resolve),
    // `ca` replaces Node's roots; keep them and add the extra ones.
    ...(extraCa.length > 0 ? { ca: [...tls.rootCertificates, ...extraCa] } : {}),
    timeout: options.connectTimeoutMs ?? 5000,
  });

  const guardedConnect: buildConnector.connector = (opts, callback) => {
    const allowedProtocol = opts.protocol === 'https:' || (options.allowInsecure === true && opts.protocol === 'http:');
    if (!allowedProtocol) {
      callback(
        new BlockedAddressError(opts.hostname, `scheme ${opts.protocol} is not allowed; callbacks must use https`),
        null,
      );
      return;
    }
    const host = opts.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host) !== 0) {
      const verdict = checkAddress(host, policy);
      if (!verdict.ok) {
        callback(new BlockedAddressError(host, verdict.reason), null);
        return;
      }
    }
    connect(opts, callback);
  };

  return new Agent({ connect: guardedConnect });
}
