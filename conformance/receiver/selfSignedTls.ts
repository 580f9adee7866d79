// A throwaway certificate for an HTTPS receiver (callBackUrl must be https, DEC-HOOK-002). The
// target must trust it: the runner writes it to the report directory (receiver-cert.pem), e.g.
// for NODE_EXTRA_CA_CERTS of a Node-based service.

import { generate } from 'selfsigned';

export async function selfSignedTls(host: string): Promise<{ key: string; cert: string }> {
  const isIp = /^[\d.]+$|:/.test(host);
  const pems = await generate([{ name: 'commonName', value: host }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 2 * 24 * 3600 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true },
      {
        name: 'subjectAltName',
        altNames: [
          isIp ? { type: 7, ip: host } : { type: 2, value: host },
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}
