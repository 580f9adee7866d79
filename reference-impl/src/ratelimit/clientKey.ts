// DEC-RATE-004: one client, one bucket. IPv4-mapped IPv6 counts as its IPv4 address, and an
// IPv6 client is keyed by its /64 (the smallest block a site gets, so rotating interface ids
// cannot mint fresh buckets). The address is Express's `req.ip`, which honours `trust proxy`:
// X-Forwarded-For counts only when the app is configured to trust the proxy.

import ipaddr from 'ipaddr.js';

/** Normalises an address into its rate-limit key; an unparseable value is used as given. */
export function clientKeyFromIp(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const bare = ip.split('%')[0]!; // drop an IPv6 zone id (fe80::1%eth0)
  if (!ipaddr.isValid(bare)) return ip;
  const addr = ipaddr.process(bare);
  if (addr.kind() === 'ipv4') return addr.toString();
  const parts = (addr as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}

/** The default `keyOf` of the rate-limit middleware. */
export function clientKey(req: { ip?: string | undefined; socket?: { remoteAddress?: string | undefined } }): string {
  return clientKeyFromIp(req.ip ?? req.socket?.remoteAddress);
}
