// `content-webhooks listen`: a local receiver for development. It verifies each delivery over its
// raw bytes, prints it readably, remembers delivery ids to flag duplicates, and can forward the
// delivery unchanged (same bytes, same headers) to the receiver being developed.

import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseJson } from '../../../spec/json.ts';
import { createMemoryDeduper } from '../dedupe.ts';
import { DELIVERY_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, verifyWebhook } from '../verify.ts';
import type { ListenCommand } from './args.ts';

export interface Listener {
  url: string;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

/** The items as lines: event name from the id suffix, trcid, resourceUri. */
function itemLines(raw: Buffer): string[] {
  let body: unknown;
  try {
    body = parseJson(raw.toString('utf8'));
  } catch {
    return ['  (body is not JSON)'];
  }
  const items = (body as { items?: unknown } | null)?.items;
  if (!Array.isArray(items)) return ['  (no items array)'];
  return items.map((item: Record<string, unknown>) => {
    const event = typeof item.id === 'string' ? item.id.slice(item.id.lastIndexOf('_') + 1) : '?';
    return `  ${event.padEnd(18)} ${String(item.trcid)}  ${String(item.resourceUri)}`;
  });
}

const FORWARDED = ['content-type', 'user-agent', TIMESTAMP_HEADER, SIGNATURE_HEADER, DELIVERY_HEADER].map((h) =>
  h.toLowerCase(),
);

function forwardHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of FORWARDED) {
    const value = headers[name];
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}

export async function listen(command: ListenCommand, print: (line: string) => void): Promise<Listener> {
  const seen = createMemoryDeduper();
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST' }).end();
        return;
      }
      const raw = await readBody(req);
      const deliveryId = req.headers[DELIVERY_HEADER.toLowerCase()];
      const at = new Date().toISOString().slice(11, 19);
      let verdict = 'signature not checked (no --secret)';
      let verified = command.secret === undefined;
      if (command.secret !== undefined) {
        const result = verifyWebhook(raw, req.headers, command.secret);
        verified = result.ok;
        verdict = result.ok ? 'signature ok' : `signature REJECTED: ${result.message}`;
      }
      // Only verified ids are remembered, so a forgery cannot mark a real delivery as a duplicate.
      const duplicate = verified && typeof deliveryId === 'string' ? await seen.checkAndRemember(deliveryId) : false;
      print(`${at} delivery ${String(deliveryId ?? '(no id)')} · ${verdict} · ${duplicate ? 'DUPLICATE' : 'new'}`);
      for (const line of itemLines(raw)) print(line);

      if (command.forwardTo) {
        try {
          const answer = await fetch(command.forwardTo, {
            method: 'POST',
            headers: forwardHeaders(req.headers),
            body: raw,
            redirect: 'manual',
          });
          const text = await answer.text();
          print(`  forwarded to ${command.forwardTo}: HTTP ${answer.status}`);
          res
            .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' })
            .end(text);
        } catch (error) {
          const cause = (error as { cause?: Error }).cause?.message ?? (error as Error).message;
          print(`  forward to ${command.forwardTo} failed: ${cause}`);
          res.writeHead(502).end();
        }
        return;
      }
      res.writeHead(verified ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(verified ? { status: duplicate ? 'duplicate' : 'accepted' } : { error: verdict }));
    })().catch((error: Error) => {
      print(`  error: ${error.message}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(command.port, command.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${command.host}:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
