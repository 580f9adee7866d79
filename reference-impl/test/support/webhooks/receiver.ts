// A real webhook receiver on 127.0.0.1 for tests: records every request with its raw body
// bytes and answers through a swappable handler. Plain node:http (or https) so tests can
// misbehave at the socket level (stall, reset, half responses).

import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export type ReceiverHandler = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => void;

export interface Receiver {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  readonly port: number;
  readonly requests: ReceivedRequest[];
  handle(handler: ReceiverHandler): void;
  close(): Promise<void>;
}

export const answer =
  (status: number, headers: http.OutgoingHttpHeaders = {}, body = ''): ReceiverHandler =>
  (_req, res) => {
    res.writeHead(status, headers).end(body);
  };

export async function startReceiver(
  handler: ReceiverHandler = answer(204),
  tlsOptions?: { key: string; cert: string },
): Promise<Receiver> {
  let current = handler;
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      current(req, res, body);
    });
  };
  const server = tlsOptions ? https.createServer(tlsOptions, onRequest) : http.createServer(onRequest);
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${tlsOptions ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    handle: (h) => {
      current = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
