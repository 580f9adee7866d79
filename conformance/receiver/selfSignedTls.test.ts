import { X509Certificate } from 'node:crypto';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { request } from 'node:https';
import { describe, expect, it } from 'vitest';
import { certificateSerial, selfSignedTls } from './selfSignedTls.ts';

/** One HTTPS GET to a server with this certificate, trusting only it. */
async function getWith(tls: { key: string; cert: string }, host: string, servername?: string): Promise<number> {
  const server = createServer(tls, (_req, res) => res.end('ok')).listen(0, host);
  await new Promise((r) => server.once('listening', r));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise<number>((resolve, reject) =>
      request({ host, port, ca: tls.cert, servername, path: '/' }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      })
        .on('error', reject)
        .end(),
    );
  } finally {
    await new Promise((r) => server.close(r));
  }
}

const TWO_DAYS = 2 * 86_400_000;

describe('selfSignedTls', () => {
  it('when made for an IP address, then it is a CA for that address and localhost, valid for two days, and a client trusting it connects', async () => {
    const tls = await selfSignedTls(['127.0.0.1', 'localhost', '127.0.0.1'], TWO_DAYS);
    const x509 = new X509Certificate(tls.cert);
    expect(x509.ca).toBe(true);
    expect(x509.subject).toBe('CN=127.0.0.1');
    expect(x509.subjectAltName).toBe('IP Address:127.0.0.1, DNS:localhost');
    const days = (Date.parse(x509.validTo) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(1.9);
    expect(days).toBeLessThan(2.1);
    expect(x509.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']); // serverAuth
    expect(x509.checkPrivateKey((await import('node:crypto')).createPrivateKey(tls.key))).toBe(true);
    expect(await getWith(tls, '127.0.0.1')).toBe(200);
  });

  it('when made for a host name or an IPv6 address, then the name is in its subject alternative names', async () => {
    expect(
      new X509Certificate((await selfSignedTls(['receiver.test', 'localhost', '127.0.0.1'], TWO_DAYS)).cert)
        .subjectAltName,
    ).toBe('DNS:receiver.test, DNS:localhost, IP Address:127.0.0.1');
    expect(
      new X509Certificate((await selfSignedTls(['::1', 'localhost', '127.0.0.1'], TWO_DAYS)).cert).subjectAltName,
    ).toBe('IP Address:0:0:0:0:0:0:0:1, DNS:localhost, IP Address:127.0.0.1');
    const named = await selfSignedTls(['localhost'], TWO_DAYS);
    expect(await getWith(named, '127.0.0.1', 'localhost')).toBe(200);
  });

  it('when the random serial starts with 0x00 or 0x80, then it is still a positive INTEGER in minimal DER (no sign octet, no leading zero)', () => {
    for (const first of [0x00, 0x05, 0x80, 0xff]) {
      const random = new Uint8Array(16).fill(0x11);
      random[0] = first;
      const der = Buffer.from(certificateSerial(random).toBER(false));
      expect(der.subarray(0, 2).toString('hex'), `first octet ${first}`).toBe('0210');
      expect(der[2], `first octet ${first}`).toBeGreaterThan(0);
      expect(der[2], `first octet ${first}`).toBeLessThan(0x80);
    }
  });
});
