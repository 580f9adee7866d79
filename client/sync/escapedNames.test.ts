import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { createContentClient } from '../http/contentClient.ts';
import { webhookReceiver, type CallbackItem } from '../webhooks/middleware.ts';
import { signWebhook } from '../webhooks/verify.ts';
import { createMemoryStore } from './memoryStore.ts';
import type { StoreOp, SyncStore } from './store.ts';
import { syncItems } from './syncItems.ts';
import type { ContentItem, ItemSource } from './types.ts';

// JSON.parse on Node 24 and 26 can read an escaped member name as an earlier one: in objects
// reached by the same members before it, a member "\"" after one named "\\" comes back as "\\"
// (nodejs/node#63785). A member name new to the process leads each `extra` object, so that the
// objects take a path of V8's object layouts no earlier test has taken: with JSON.parse, every
// case below fails. Each way the client reads JSON must keep the names.

/** Two items whose `extra` objects hold the names "\\" and "\"", led by a name new to the process. */
function twoItems(): { items: object[]; texts: string[]; page: string } {
  const lead = `lead_${randomUUID().slice(0, 8)}`;
  const item = (n: number, name: string, leadValue: unknown) => ({
    trcid: `trc-${n}`,
    entitytype: 'EVENEMENT',
    wfstatus: 'approved',
    lastupdated: `2026-03-01T10:00:00.00${n}Z`,
    extra: { [lead]: leadValue, [name]: n },
  });
  const items = [item(1, '\\', []), item(2, '"', 2)];
  const texts = items.map((value) => JSON.stringify(value));
  return { items, texts, page: `[${texts.join(',')}]` };
}

/** The names of `extra` after its leading one. */
const escapedNames = (value: unknown): string[] => Object.keys((value as { extra: object }).extra).slice(1);
const SENT = [['\\'], ['"']];

/** A store of parsed items: `op.item` parsed from the page's bytes (keepsText), or the page parsed whole. */
function parsedItemStore(keepsText: boolean): SyncStore & { items: ContentItem[] } {
  const items: ContentItem[] = [];
  const marks = new Map<string, string>();
  return {
    items,
    keepsItemText: keepsText,
    getMark: async (c) => marks.get(c),
    putMark: async (c, mark) => void marks.set(c, mark),
    upsert: async (_c, value) => void items.push(value),
    remove: async () => false,
    listTrcids: async () => [],
    getItem: async () => undefined,
    applyBatch: async (_c, ops: readonly StoreOp<ContentItem>[]) => {
      for (const op of ops) if (op.op === 'upsert') items.push(op.item);
      return { upserted: ops.length, removed: 0 };
    },
  };
}

/** A source whose one page is `page`, as bytes (as the client's listItemsBody gives it). */
const pageSource = (page: string): ItemSource => ({
  listItems: async () => {
    throw new Error('unused: the page goes as bytes');
  },
  listItemsBody: async () => Buffer.from(page),
});

async function serve(handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('member names with escapes (nodejs/node#63785)', () => {
  it('when the memory store reads the items it keeps, then each name is the one sent', async () => {
    const { texts } = twoItems();
    const store = createMemoryStore();
    const ops = texts.map((text, i) => ({ op: 'upsert', trcid: `trc-${i + 1}`, json: Buffer.from(text) }));
    await store.applyBatch('events', ops as StoreOp<ContentItem>[]);
    const read = [await store.getItem('events', 'trc-1'), await store.getItem('events', 'trc-2')];
    expect(read.map(escapedNames)).toEqual(SENT);
  });

  it.each([
    ["each item from the page's bytes (op.item of a store that keeps item text)", true],
    ['the page parsed whole (a store without item text)', false],
  ])('when sync hands over %s, then each name is the one sent', async (_name, keepsText) => {
    const store = parsedItemStore(keepsText);
    await syncItems(pageSource(twoItems().page), 'events', store);
    expect(store.items.map(escapedNames)).toEqual(SENT);
  });

  it('when the typed client lists a page, then each name is the one sent', async () => {
    const { page } = twoItems();
    const server = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(page));
    const client = createContentClient({ baseUrl: `${server.url}/api` });
    try {
      expect((await client.listItems('events')).map(escapedNames)).toEqual(SENT);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('when the typed client reads items one by one, then each name is the one sent', async () => {
    const { texts } = twoItems();
    const server = await serve((req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(texts[Number(req.url!.at(-1)) - 1]),
    );
    const client = createContentClient({ baseUrl: `${server.url}/api` });
    try {
      const read = [
        await client.getItem('events', 'trc-1'),
        await client.getResource(`${server.url}/api/events/trc-2`),
      ];
      expect(read.map(escapedNames)).toEqual(SENT);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("when the client's openapi-fetch methods read answers, then each name is the one sent", async () => {
    const { texts, page } = twoItems();
    const server = await serve((req, res) => {
      const chunked = req.url === '/api/empty' ? { 'transfer-encoding': 'chunked' } : {};
      res.writeHead(200, { 'content-type': 'application/json', ...chunked });
      if (req.url === '/api/empty') res.end();
      else res.end(req.url === '/api/events' ? page : texts[Number(req.url!.at(-1)) - 1]);
    });
    const client = createContentClient({ baseUrl: `${server.url}/api` });
    try {
      const one = await client.GET('/events/{id}', { params: { path: { id: 'trc-1' } } });
      const two = await client.GET('/events/{id}', { params: { path: { id: 'trc-2' } }, parseAs: 'json' });
      expect([one.data, two.data].map(escapedNames)).toEqual(SENT);
      const listed = await client.request('get', '/events', {});
      expect((listed.data as unknown[]).map(escapedNames)).toEqual(SENT);
      // Another parseAs is the caller's; an empty body is no data, as openapi-fetch has it.
      const text = await client.GET('/events/{id}', { params: { path: { id: 'trc-2' } }, parseAs: 'text' });
      expect(text.data).toBe(texts[1]);
      const empty = await client.request('get', '/empty' as '/events', {});
      expect(empty.data).toBeUndefined();
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('when the webhook receiver hands over a delivery, then each name is the one sent', async () => {
    const secret = 'Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5';
    const received: CallbackItem[] = [];
    const receiver = webhookReceiver({ secret, onItems: (items) => void received.push(...items) });
    const server = await serve(express().post('/hooks', receiver));
    try {
      const items = twoItems().items.map((item, i) => ({
        ...item,
        id: `${randomUUID()}_EventUpdated`,
        resourceUri: `https://cs.example/api/events/trc-${i + 1}`,
        resourceType: 'EVENT',
        actionType: 'UPDATED',
      }));
      const body = JSON.stringify({ items });
      const ts = Math.floor(Date.now() / 1000);
      const res = await fetch(`${server.url}/hooks`, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'x-service-timestamp': String(ts),
          'x-service-signature': signWebhook(secret, ts, body),
          'x-service-delivery': randomUUID(),
        },
      });
      expect(res.status).toBe(200);
      await receiver.drain();
      expect(received.map(escapedNames)).toEqual(SENT);
    } finally {
      await server.close();
    }
  });
});
