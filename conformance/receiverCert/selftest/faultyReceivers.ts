// Deliberately broken webhook receivers for the receiver certification's self-test: each gets
// one thing wrong, and the certification must fail it on the requirement that thing breaks.

import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../../../client/webhooks/verify.ts';

export type Fault =
  /** Accepts everything: no signature check at all. */
  | 'noVerify'
  /** Verifies over JSON.stringify(JSON.parse(body)), not the raw bytes. */
  | 'verifyReserialised'
  /** Verifies the signature but ignores the timestamp's age. */
  | 'noTimestampWindow'
  /** Verifies, but answers a forgery with a 500. */
  | 'serverErrorOnForgery'
  /** Verifies, then does its work before answering: slower than the acknowledgement limit. */
  | 'slow'
  /** Verifies, and refuses a delivery id it has seen with a 409. */
  | 'refusesDuplicate';

export const FAULTS: readonly Fault[] = [
  'noVerify',
  'verifyReserialised',
  'noTimestampWindow',
  'serverErrorOnForgery',
  'slow',
  'refusesDuplicate',
];

export interface FaultyReceiverOptions {
  secret: string;
  /** For `slow`: how long it works before answering. */
  delayMs?: number;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

const answer = (res: ServerResponse, status: number) => res.writeHead(status).end();

function handlerFor(fault: Fault, options: FaultyReceiverOptions) {
  const seen = new Set<string>();
  return async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    if (fault === 'noVerify') return answer(res, 200);
    let bytes: Buffer | string = raw;
    if (fault === 'verifyReserialised') {
      try {
        bytes = JSON.stringify(JSON.parse(raw.toString('utf8')));
      } catch {
        return answer(res, 400);
      }
    }
    const verdict = verifyWebhook(
      bytes,
      req.headers,
      options.secret,
      fault === 'noTimestampWindow' ? { toleranceSeconds: Number.MAX_SAFE_INTEGER } : {},
    );
    if (!verdict.ok) return answer(res, fault === 'serverErrorOnForgery' ? 500 : 401);
    if (fault === 'refusesDuplicate') {
      if (seen.has(verdict.deliveryId)) return answer(res, 409);
      seen.add(verdict.deliveryId);
    }
    if (fault === 'slow') await new Promise((r) => setTimeout(r, options.delayMs ?? 6_000));
    return answer(res, 200);
  };
}

export interface RunningReceiver {
  url: string;
  close(): Promise<void>;
}

export async function startFaultyReceiver(fault: Fault, options: FaultyReceiverOptions): Promise<RunningReceiver> {
  const handle = handlerFor(fault, options);
  const server = createServer((req, res) => {
    handle(req, res).catch(() => answer(res, 500));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
