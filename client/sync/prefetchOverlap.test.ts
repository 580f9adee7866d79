// The prefetched request is with the service while the client still works on the page before:
// the typed client and its transport against a server in a worker thread, which notes when each
// request arrives even while the client's thread is busy.

import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createContentClient } from '../http/contentClient.ts';
import { createTransport } from '../http/transport.ts';
import { keysetPages } from './keyset.ts';

const SIZE = 3;
/** How long the client works on each page it is given. */
const BUSY_MS = 400;

// Seven items one second apart; pages of three: [0-2], [2-4], [4-6], [6] with the inclusive bound.
const SERVER = `
const http = require('node:http');
const { parentPort } = require('node:worker_threads');
const items = Array.from({ length: 7 }, (_, i) => ({
  id: 'id' + i, trcid: 't' + i, entitytype: 'EVENEMENT', wfstatus: 'approved',
  lastupdated: '2026-01-01T00:00:0' + i + '.000Z',
}));
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  const from = url.searchParams.get('lastupdated');
  parentPort.postMessage({ arrived: Date.now(), from });
  const size = Number(url.searchParams.get('size'));
  const page = items.filter((item) => from === null || item.lastupdated >= from).slice(0, size);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(page));
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
`;

let worker: Worker;
let baseUrl: string;
const arrivals: Array<{ arrived: number; from: string | null }> = [];

beforeAll(async () => {
  worker = new Worker(SERVER, { eval: true });
  const port = await new Promise<number>((resolve) => {
    worker.on('message', (message: { port?: number; arrived?: number; from: string | null }) => {
      if (message.port !== undefined) resolve(message.port);
      else arrivals.push({ arrived: message.arrived!, from: message.from });
    });
  });
  baseUrl = `http://127.0.0.1:${port}/api`;
});

afterAll(async () => {
  await worker.terminate();
});

it('when the client works on a full page, then the request for the next page has reached the service meanwhile [PAGE-005]', async () => {
  const transport = createTransport({ retry: false });
  const client = createContentClient({ baseUrl, token: 'cst_any', transport });
  const doneWith: Array<{ at: number; last: string }> = [];
  try {
    for await (const page of keysetPages(client, 'events', ['approved'], { size: SIZE })) {
      const started = Date.now();
      while (Date.now() - started < BUSY_MS) {
        // The client's own work on the page: the event loop is not free meanwhile.
      }
      doneWith.push({ at: Date.now(), last: page.items.at(-1)!.lastupdated! });
    }
  } finally {
    await client.close();
    await transport.close();
  }
  expect(doneWith.map((d) => d.last.slice(17, 19))).toEqual(['02', '04', '06', '06']);
  // Pages after the second are asked for with the bound read from the body before it is parsed.
  for (const page of [1, 2]) {
    const bound = doneWith[page]!.last;
    const request = arrivals.find((a) => a.from === bound);
    expect(request, `request from ${bound}`).toBeDefined();
    expect(request!.arrived).toBeLessThan(doneWith[page]!.at - BUSY_MS / 2);
  }
});
