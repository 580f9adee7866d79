import type { LookupAddress } from 'node:dns';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateCallbackUrl } from './callbackUrl.ts';
import {
  BlockedAddressError,
  checkAddress,
  createGuardedAgent,
  createGuardedLookup,
  isPublicUnicast,
  type Resolver,
} from './ssrfGuard.ts';
import { startReceiver, type Receiver } from '../../test/support/webhooks/receiver.ts';

const v4 = (address: string): LookupAddress => ({ address, family: 4 });
const v6 = (address: string): LookupAddress => ({ address, family: 6 });
/** A fake DNS: each call to a name returns the next answer of its list (the last one repeats). */
function fakeDns(answers: Record<string, LookupAddress[][]>): Resolver & { calls: string[] } {
  const seen = new Map<string, number>();
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    const list = answers[hostname];
    if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    const i = seen.get(hostname) ?? 0;
    seen.set(hostname, i + 1);
    return list[Math.min(i, list.length - 1)]!;
  };
  return Object.assign(resolve, { calls });
}

describe('checkAddress (DEC-HOOK-002)', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.10', 'reserved'],
    ['198.51.100.10', 'reserved'],
    ['203.0.113.10', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['::ffff:127.0.0.1', 'IPv4-mapped'],
    ['::ffff:8.8.8.8', 'IPv4-mapped'],
    ['::ffff:7f00:1', 'IPv4-mapped'],
    ['64:ff9b::a9fe:a9fe', 'rfc6052'],
    ['64:ff9b::8.8.8.8', 'rfc6052'],
    ['::7f00:1', 'outside global unicast'], // IPv4-compatible (deprecated) form of 127.0.0.1
    ['2002:0a00:0001::1', '6to4 address embedding 10.0.0.1'],
    ['2002:a9fe:a9fe::1', '6to4 address embedding 169.254.169.254'],
    ['2001:0:0a00:0001::f5ff:fffe', 'teredo address embedding 10.0.0.1'],
    ['not-an-ip', 'not an IP address'],
  ])('when the address is %s, then it is refused as %s', (ip, why) => {
    const verdict = checkAddress(ip);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toContain(why);
    expect(isPublicUnicast(ip)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '93.184.215.14',
    '1.1.1.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '2002:0808:0808::1',
  ])('when the address is public unicast %s, then it is allowed', (ip) => {
    expect(checkAddress(ip)).toEqual({ ok: true });
  });

  it('when loopback is allowed (ALLOW_INSECURE_CALLBACKS), then only loopback opens up, not metadata or private ranges', () => {
    const insecure = { allowLoopback: true };
    expect(checkAddress('127.0.0.1', insecure).ok).toBe(true);
    expect(checkAddress('::1', insecure).ok).toBe(true);
    for (const ip of [
      '169.254.169.254',
      '10.0.0.1',
      '192.168.0.1',
      'fc00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '0.0.0.0',
    ]) {
      expect(checkAddress(ip, insecure).ok, ip).toBe(false);
    }
  });
});

describe('createGuardedLookup', () => {
  const lookupOnce = (
    lookup: ReturnType<typeof createGuardedLookup>,
    host: string,
    options: { all?: boolean; family?: number },
  ) =>
    new Promise<{ err: NodeJS.ErrnoException | null; address: unknown; family?: number | undefined }>((resolve) => {
      lookup(host, options, (err, address, family) => resolve({ err, address, family }));
    });

  it('when Node asks for all addresses, then every one is checked and the list is returned', async () => {
    const lookup = createGuardedLookup({}, fakeDns({ 'ok.test': [[v4('8.8.8.8'), v6('2606:4700:4700::1111')]] }));
    const { err, address } = await lookupOnce(lookup, 'ok.test', { all: true });
    expect(err).toBeNull();
    expect(address).toEqual([v4('8.8.8.8'), v6('2606:4700:4700::1111')]);
  });

  it('when Node asks for one address, then the first is returned in (address, family) form', async () => {
    const lookup = createGuardedLookup({}, fakeDns({ 'ok.test': [[v4('8.8.8.8')]] }));
    expect(await lookupOnce(lookup, 'ok.test', {})).toEqual({ err: null, address: '8.8.8.8', family: 4 });
  });

  it.each([true, false])(
    'when any resolved address is internal (all: %s), then the whole name is refused',
    async (all) => {
      const lookup = createGuardedLookup({}, fakeDns({ 'mixed.test': [[v4('8.8.8.8'), v4('10.0.0.7')]] }));
      const { err } = await lookupOnce(lookup, 'mixed.test', { all });
      expect(err).toBeInstanceOf(BlockedAddressError);
      expect(err!.message).toContain('10.0.0.7 is a private address');
    },
  );

  it('when the name does not resolve, then the DNS error passes through (a transient failure)', async () => {
    const lookup = createGuardedLookup({}, fakeDns({}));
    const { err } = await lookupOnce(lookup, 'nowhere.test', { all: true });
    expect(err?.code).toBe('ENOTFOUND');
  });
});

describe('createGuardedAgent', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  async function attempt(url: string, agent: ReturnType<typeof createGuardedAgent>) {
    try {
      const res = await request(url, { method: 'POST', body: '{}', dispatcher: agent });
      await res.body.dump();
      return { status: res.statusCode };
    } catch (err) {
      return { error: err as Error };
    }
  }

  it('when a name resolves to loopback and insecure callbacks are allowed, then the request goes through the guarded lookup', async () => {
    const dnsFake = fakeDns({ 'receiver.test': [[v4('127.0.0.1')]] });
    const agent = createGuardedAgent({ allowInsecure: true, resolve: dnsFake });
    expect(await attempt(`http://receiver.test:${receiver.port}/hook`, agent)).toEqual({ status: 204 });
    expect(dnsFake.calls).toEqual(['receiver.test']);
    await agent.close();
  });

  it('when the same name resolves to loopback under the default policy, then no connection is made', async () => {
    const before = receiver.requests.length;
    const agent = createGuardedAgent({ resolve: fakeDns({ 'receiver.test': [[v4('127.0.0.1')]] }) });
    const out = await attempt(`https://receiver.test:${receiver.port}/hook`, agent);
    expect(out.error).toBeInstanceOf(BlockedAddressError);
    expect(receiver.requests.length).toBe(before);
    await agent.close();
  });

  it('when DNS rebinds between registration and delivery, then registration passes and the delivery connection is refused', async () => {
    const dnsFake = fakeDns({ 'rebind.test': [[v4('93.184.215.14')], [v4('127.0.0.1')]] });
    expect(await validateCallbackUrl('https://rebind.test/hook', { resolve: dnsFake })).toEqual({
      ok: true,
      url: 'https://rebind.test/hook',
    });
    const agent = createGuardedAgent({ resolve: dnsFake });
    const out = await attempt(`https://rebind.test:${receiver.port}/hook`, agent);
    expect(out.error).toBeInstanceOf(BlockedAddressError);
    expect(out.error!.message).toContain('127.0.0.1 is a loopback address');
    expect(dnsFake.calls).toEqual(['rebind.test', 'rebind.test']);
    await agent.close();
  });

  it.each([
    'https://127.0.0.1:PORT/',
    'https://2130706433:PORT/',
    'https://0x7f.1:PORT/',
    'https://0177.0.0.1:PORT/',
    'https://127.1:PORT/',
    'https://[::1]:PORT/',
    'https://[::ffff:127.0.0.1]:PORT/',
    'https://169.254.169.254/latest/meta-data/',
    'https://10.0.0.1/',
  ])(
    'when the target is the literal IP %s, then the connector refuses it before dialling (lookup is never called)',
    async (template) => {
      const before = receiver.requests.length;
      const dnsFake = fakeDns({});
      const agent = createGuardedAgent({ resolve: dnsFake });
      const out = await attempt(template.replace('PORT', String(receiver.port)), agent);
      expect(out.error).toBeInstanceOf(BlockedAddressError);
      expect(dnsFake.calls).toEqual([]);
      expect(receiver.requests.length).toBe(before);
      await agent.close();
    },
  );

  it('when insecure callbacks are allowed, then literal loopback works but the metadata address stays blocked', async () => {
    const agent = createGuardedAgent({ allowInsecure: true });
    expect(await attempt(`http://127.0.0.1:${receiver.port}/`, agent)).toEqual({ status: 204 });
    const meta = await attempt('http://169.254.169.254/latest/meta-data/', agent);
    expect(meta.error).toBeInstanceOf(BlockedAddressError);
    await agent.close();
  });

  it('when the scheme is http under the default policy, then it is refused', async () => {
    const agent = createGuardedAgent({ resolve: fakeDns({ 'plain.test': [[v4('8.8.8.8')]] }) });
    const out = await attempt('http://plain.test/hook', agent);
    expect(out.error).toBeInstanceOf(BlockedAddressError);
    expect(out.error!.message).toContain('scheme http: is not allowed');
    await agent.close();
  });
});
