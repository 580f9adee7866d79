import { describe, expect, it } from 'vitest';
import { clientKey, clientKeyFromIp } from './clientKey.ts';

describe('clientKeyFromIp (DEC-RATE-004)', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['::ffff:cb00:7109', '203.0.113.9'],
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8::/64'],
    ['::1', '::/64'],
    ['fe80::1%eth0', 'fe80::/64'],
  ])('when the client address is %s, then the key is %s [RATE-001]', (ip, key) => {
    expect(clientKeyFromIp(ip)).toBe(key);
  });

  it('when two addresses share a /64, then they share a key; a different /64 gets another', () => {
    expect(clientKeyFromIp('2001:db8:aa:bb::1')).toBe(clientKeyFromIp('2001:db8:aa:bb:ffff::2'));
    expect(clientKeyFromIp('2001:db8:aa:bc::1')).not.toBe(clientKeyFromIp('2001:db8:aa:bb::1'));
  });

  it('when the address is missing or not an IP, then a stable fallback key is used', () => {
    expect(clientKeyFromIp(undefined)).toBe('unknown');
    expect(clientKeyFromIp('')).toBe('unknown');
    expect(clientKeyFromIp('not-an-ip')).toBe('not-an-ip');
  });

  it('when req.ip is absent, then the socket address is used', () => {
    expect(clientKey({ socket: { remoteAddress: '::ffff:192.0.2.5' } })).toBe('192.0.2.5');
    expect(clientKey({ ip: '192.0.2.6', socket: { remoteAddress: '10.0.0.1' } })).toBe('192.0.2.6');
  });
});
