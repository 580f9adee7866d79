import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { validateCallbackUrl } from './callbackUrl.ts';
import type { Resolver } from './ssrfGuard.ts';

const dnsTable: Record<string, LookupAddress[]> = {
  'hooks.example.com': [{ address: '93.184.215.14', family: 4 }],
  'v6.example.com': [{ address: '2606:4700:4700::1111', family: 6 }],
  'intranet.example.com': [{ address: '10.20.30.40', family: 4 }],
  'split.example.com': [
    { address: '93.184.215.14', family: 4 },
    { address: 'fd00::5', family: 6 },
  ],
  'metadata.example.com': [{ address: '169.254.169.254', family: 4 }],
  localhost: [
    { address: '127.0.0.1', family: 4 },
    { address: '::1', family: 6 },
  ],
};
const resolve: Resolver = async (host) => {
  const found = dnsTable[host];
  if (found) return found;
  if (host === 'flaky.example.com') throw Object.assign(new Error('queryA ETIMEOUT'), { code: 'EAI_AGAIN' });
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

describe('validateCallbackUrl (DEC-HOOK-002)', () => {
  it.each([
    ['https://hooks.example.com/webhooks/content', 'https://hooks.example.com/webhooks/content'],
    ['https://HOOKS.example.com:8443/a?b=c', 'https://hooks.example.com:8443/a?b=c'],
    ['https://v6.example.com/', 'https://v6.example.com/'],
    ['https://93.184.215.14/hook', 'https://93.184.215.14/hook'],
    ['https://[2606:4700:4700::1111]/hook', 'https://[2606:4700:4700::1111]/hook'],
    ['https://flaky.example.com/hook', 'https://flaky.example.com/hook'],
  ])('when the URL is %s, then it is accepted as %s', async (input, normalised) => {
    expect(await validateCallbackUrl(input, { resolve })).toEqual({ ok: true, url: normalised });
  });

  it.each([
    ['http://hooks.example.com/', 'must use https (received: http)'],
    ['ftp://hooks.example.com/', 'must use https'],
    ['hooks.example.com/webhook', 'must be an absolute https URL'],
    ['/relative', 'must be an absolute https URL'],
    ['', 'must be an absolute https URL'],
    ['https://user:pw@hooks.example.com/', 'must not contain user info'],
    ['https://token@hooks.example.com/', 'must not contain user info'],
    [`https://hooks.example.com/${'a'.repeat(2030)}`, 'must be at most 2048 characters (received: 2056)'],
    ['https://localhost/hook', 'localhost must resolve to public addresses only: 127.0.0.1 is a loopback address'],
    ['https://127.0.0.1/', 'host must be a public address: 127.0.0.1 is a loopback address'],
    ['https://2130706433/', '127.0.0.1 is a loopback address'],
    ['https://0x7f.1/', '127.0.0.1 is a loopback address'],
    ['https://0177.0.0.1/', '127.0.0.1 is a loopback address'],
    ['https://[::1]/', '::1 is a loopback address'],
    ['https://[::ffff:127.0.0.1]/', 'IPv4-mapped address (of 127.0.0.1)'],
    ['https://[fc00::1]/', 'uniqueLocal'],
    ['https://[fe80::1]/', 'linkLocal'],
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254 is a linkLocal address'],
    ['https://10.0.0.8/', 'private'],
    ['https://100.64.1.1/', 'carrierGradeNat'],
    ['https://192.0.2.1/', 'reserved'],
    ['https://[64:ff9b::a9fe:a9fe]/', 'rfc6052'],
    [
      'https://intranet.example.com/',
      'intranet.example.com must resolve to public addresses only: 10.20.30.40 is a private address',
    ],
    ['https://split.example.com/', 'fd00::5 is a uniqueLocal address'],
    ['https://metadata.example.com/', '169.254.169.254 is a linkLocal address'],
    ['https://no-such-host.example.com/', 'host no-such-host.example.com does not resolve'],
  ])('when the URL is %s, then it is refused: %s', async (input, reason) => {
    const result = await validateCallbackUrl(input, { resolve });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.reason).toMatch(/^callBackUrl /);
      expect(result.reason).toContain(reason);
    }
  });

  it('when exactly 2048 characters long, then the length is accepted', async () => {
    const url = `https://hooks.example.com/${'a'.repeat(2048 - 'https://hooks.example.com/'.length)}`;
    expect(url).toHaveLength(2048);
    expect((await validateCallbackUrl(url, { resolve })).ok).toBe(true);
  });

  it('when insecure callbacks are allowed, then http and loopback pass but private and metadata addresses do not', async () => {
    const insecure = { allowInsecure: true, resolve };
    expect(await validateCallbackUrl('http://127.0.0.1:9999/hook', insecure)).toEqual({
      ok: true,
      url: 'http://127.0.0.1:9999/hook',
    });
    expect((await validateCallbackUrl('http://localhost:9999/hook', insecure)).ok).toBe(true);
    expect((await validateCallbackUrl('https://[::1]/', insecure)).ok).toBe(true);
    expect((await validateCallbackUrl('http://169.254.169.254/', insecure)).ok).toBe(false);
    expect((await validateCallbackUrl('http://10.0.0.1/', insecure)).ok).toBe(false);
    expect((await validateCallbackUrl('http://intranet.example.com/', insecure)).ok).toBe(false);
    expect((await validateCallbackUrl('ftp://127.0.0.1/', insecure)).ok).toBe(false);
  });

  it('when the system resolver is used for localhost, then the loopback answer is refused', async () => {
    const result = await validateCallbackUrl('https://localhost/hook');
    expect(result.ok).toBe(false);
  });
});
