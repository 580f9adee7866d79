// The certificate of the suite's feed partner endpoint. Partner feeds are fetched over HTTPS
// (FEED-008, DEC-FEED-009), so the target's feed must trust it. Either the vendor's own pair
// (--feed-partner-cert/--feed-partner-key), or a self-signed one kept in the report directory
// (feed-partner-cert.pem, feed-partner-key.pem) and reused while it is valid for the partner's
// host, so that a feed configured to trust it once keeps working run after run.

import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import type { FeedPartnerConfig } from '../config/config.ts';
import { selfSignedTls } from '../receiver/selfSignedTls.ts';

export const PARTNER_CERT_FILE = 'feed-partner-cert.pem';
export const PARTNER_KEY_FILE = 'feed-partner-key.pem';
/** A generated certificate is valid this long; one that ends within REUSE_MARGIN_MS is replaced. */
const VALIDITY_MS = 365 * 24 * 3600_000;
const REUSE_MARGIN_MS = 7 * 24 * 3600_000;

export interface PartnerTls {
  key: string;
  cert: string;
  /** Where the certificate is (the given file, or the report dir's). */
  certFile: string;
  /** `generated`: written by this run; `reused`: the report dir's from an earlier run; `given`: the vendor's. */
  source: 'given' | 'generated' | 'reused';
}

export class PartnerTlsError extends Error {
  override readonly name = 'PartnerTlsError';
}

/** The host names a certificate of the partner must hold: the URL's host and the loopback names. */
export function partnerHosts(partner: Pick<FeedPartnerConfig, 'host' | 'url'>): string[] {
  const urlHost = new URL(partner.url).hostname.replace(/^\[|\]$/g, '');
  const listen = ['0.0.0.0', '::'].includes(partner.host) ? [] : [partner.host];
  return [...new Set([urlHost, ...listen, '127.0.0.1', 'localhost'])];
}

/** The partner's key and certificate (read, reused or generated); throws PartnerTlsError saying what is wrong. */
export async function loadPartnerTls(
  partner: FeedPartnerConfig,
  reportDir: string,
  now = Date.now(),
): Promise<PartnerTls> {
  if (partner.certFile !== undefined && partner.keyFile !== undefined) {
    const [cert, key] = await Promise.all([
      readPem(partner.certFile, 'CERTIFICATE'),
      readPem(partner.keyFile, 'PRIVATE KEY'),
    ]);
    const problem = mismatch(cert, key, [], now);
    if (problem) throw new PartnerTlsError(`--feed-partner-cert ${partner.certFile}: ${problem}`);
    return { key, cert, certFile: partner.certFile, source: 'given' };
  }
  const certFile = join(reportDir, PARTNER_CERT_FILE);
  const keyFile = join(reportDir, PARTNER_KEY_FILE);
  const hosts = partnerHosts(partner);
  const kept = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')]).catch(() => undefined);
  if (kept && mismatch(kept[0], kept[1], hosts, now + REUSE_MARGIN_MS) === undefined)
    return { cert: kept[0], key: kept[1], certFile, source: 'reused' };

  const pems = await selfSignedTls(hosts, VALIDITY_MS, now);
  await mkdir(reportDir, { recursive: true });
  await writeFile(certFile, pems.cert);
  await writeFile(keyFile, pems.key, { mode: 0o600 });
  return { key: pems.key, cert: pems.cert, certFile, source: 'generated' };
}

async function readPem(file: string, label: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new PartnerTlsError(`cannot read ${file}: ${(error as Error).message}`);
  }
  if (!text.includes('-----BEGIN ') || !text.includes(label))
    throw new PartnerTlsError(`${file} holds no PEM ${label.toLowerCase()}`);
  return text;
}

/** Why `cert` and `key` do not make a usable pair for `hosts` until `until`; undefined when they do. */
function mismatch(cert: string, key: string, hosts: readonly string[], until: number): string | undefined {
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
    if (!x509.checkPrivateKey(createPrivateKey(key))) return 'the key does not belong to the certificate';
  } catch (error) {
    return `not a usable certificate and key: ${(error as Error).message}`;
  }
  if (Date.parse(x509.validTo) <= until) return `the certificate ends ${x509.validTo}`;
  const missing = hosts.filter((h) => (isIP(h) ? x509.checkIP(h) === undefined : x509.checkHost(h) === undefined));
  return missing.length > 0 ? `the certificate is not valid for ${missing.join(', ')}` : undefined;
}
