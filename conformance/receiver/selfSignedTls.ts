// A self-signed certificate for the suite's own HTTPS servers: the webhook receiver (callBackUrl
// must be https, DEC-HOOK-002; the runner writes it to the report directory, receiver-cert.pem,
// e.g. for NODE_EXTRA_CA_CERTS of a Node-based service) and the feed partner (partnerTls.ts). It
// is its own CA, so a target trusts it as an extra authority. An ECDSA P-256 key from WebCrypto,
// the certificate written with pkijs, without a certificate generator's dependency tree on top.

import { KeyObject, randomBytes, webcrypto, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import * as asn1js from 'asn1js';
import ipaddr from 'ipaddr.js';
import * as pkijs from 'pkijs';

const OID = {
  commonName: '2.5.4.3',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
} as const;
/** keyUsage bits, first octet: digitalSignature (0x80), keyEncipherment (0x20), keyCertSign (0x04). */
const KEY_USAGE = 0x80 | 0x20 | 0x04;

const generalName = (name: string): pkijs.GeneralName =>
  isIP(name) !== 0
    ? new pkijs.GeneralName({
        type: 7,
        value: new asn1js.OctetString({ valueHex: Uint8Array.from(ipaddr.parse(name).toByteArray()) }),
      })
    : new pkijs.GeneralName({ type: 2, value: name });

/**
 * A random positive serial number in minimal DER: its first octet 0x40–0x7f, so it needs no sign
 * octet and has no leading zero (OpenSSL refuses a certificate with either).
 */
export function certificateSerial(random: Uint8Array = randomBytes(16)): asn1js.Integer {
  const octets = Uint8Array.from(random);
  octets[0] = (octets[0]! & 0x3f) | 0x40;
  return new asn1js.Integer({ valueHex: octets });
}

/** A key and certificate for `hosts` (the first is the common name), valid from now for `validMs`. */
export async function selfSignedTls(
  hosts: readonly string[],
  validMs: number,
  now = Date.now(),
): Promise<{ key: string; cert: string }> {
  const host = hosts[0];
  if (host === undefined) throw new RangeError('selfSignedTls needs at least one host');
  const crypto = new pkijs.CryptoEngine({ name: 'node', crypto: globalThis.crypto });
  const keys = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = certificateSerial();
  const name = () =>
    new pkijs.AttributeTypeAndValue({ type: OID.commonName, value: new asn1js.Utf8String({ value: host }) });
  cert.issuer.typesAndValues.push(name());
  cert.subject.typesAndValues.push(name());
  cert.notBefore.value = new Date(now - 60_000);
  cert.notAfter.value = new Date(now + validMs);
  const altNames = [...new Set(hosts)].map(generalName);
  cert.extensions = [
    new pkijs.Extension({
      extnID: OID.basicConstraints,
      critical: true,
      extnValue: new pkijs.BasicConstraints({ cA: true }).toSchema().toBER(false),
    }),
    new pkijs.Extension({
      extnID: OID.keyUsage,
      critical: true,
      extnValue: new asn1js.BitString({ valueHex: Uint8Array.of(KEY_USAGE), unusedBits: 2 }).toBER(false),
    }),
    new pkijs.Extension({
      extnID: OID.extKeyUsage,
      extnValue: new pkijs.ExtKeyUsage({ keyPurposes: [OID.serverAuth] }).toSchema().toBER(false),
    }),
    new pkijs.Extension({
      extnID: OID.subjectAltName,
      extnValue: new pkijs.AltName({ altNames }).toSchema().toBER(false),
    }),
  ];
  await cert.subjectPublicKeyInfo.importKey(keys.publicKey, crypto);
  await cert.sign(keys.privateKey, 'SHA-256', crypto);
  return {
    key: KeyObject.from(keys.privateKey).export({ type: 'pkcs8', format: 'pem' }) as string,
    cert: new X509Certificate(Buffer.from(cert.toSchema(true).toBER(false))).toString(),
  };
}
