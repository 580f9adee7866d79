// End to end over real HTTP: syncItems → createContentClient (openapi-fetch) → createTransport
// (undici, retries) → the scripted fake behind node:http, which throttles with 429 + Retry-After.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContentClient } from '../http/contentClient.ts';
import { ServiceError } from '../http/serviceError.ts';
import type { WaitEvent } from '../http/retry.ts';
import { createTransport } from '../http/transport.ts';
import { createMemoryStore } from './memoryStore.ts';
import { syncItems } from './syncItems.ts';
import { createFakeContentService } from './testing/fakeContentService.ts';
import { serveFake, type FakeHttpServer } from './testing/fakeHttpServer.ts';

const TOKEN = 'cst_test-token';
const service = createFakeContentService();
let server: FakeHttpServer;

beforeAll(async () => {
  server = await serveFake(service, { token: TOKEN });
});

afterAll(async () => {
  await server.close();
});

describe('syncItems over HTTP', () => {
  it('when the service throttles every 3rd request, then the waits honour Retry-After and the mirror is exact [ERR-006] [SYNC-003]', async () => {
    for (let i = 0; i < 40; i++) service.create('events', { wfstatus: i % 7 === 0 ? 'archived' : 'approved' });
    let now = Date.now();
    const waits: WaitEvent[] = [];
    const transport = createTransport({
      retry: {
        clock: () => now,
        sleep: async (ms) => void (now += ms),
        onWait: (e) => waits.push(e),
      },
    });
    const store = createMemoryStore();
    server.throttleEvery = 3;
    try {
      const summary = await syncItems(
        createContentClient({ baseUrl: server.baseUrl, token: TOKEN, transport }),
        'events',
        store,
        { size: 6 },
      );
      expect(summary.pages).toBeGreaterThan(5);
      expect(waits.length).toBeGreaterThan(2);
      for (const w of waits) {
        expect(w).toMatchObject({ status: 429, reason: 'rate-limited', retryAfterMs: 1000 });
        expect(w.delayMs).toBeGreaterThanOrEqual(1000);
      }
      const local = new Map([...store.snapshot('events')].map(([k, v]) => [k, v.lastupdated]));
      expect(local).toEqual(
        new Map(
          service
            .all('events')
            .filter((i) => i.wfstatus === 'approved')
            .map((i) => [i.trcid, i.lastupdated]),
        ),
      );
      // Stamps like 2026-03-01T11:00:00.000123+01:00 survived the query string (the fake is strict).
      expect(service.calls.some((c) => c.query.lastupdated?.endsWith('+01:00'))).toBe(true);
    } finally {
      server.throttleEvery = 0;
      await transport.close();
    }
  });

  it('when the token is wrong, then a ServiceError carries the status and message, and the mark is untouched', async () => {
    const transport = createTransport({ retry: false });
    const store = createMemoryStore();
    try {
      const err = await syncItems(
        createContentClient({ baseUrl: server.baseUrl, token: 'wrong', transport }),
        'events',
        store,
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ServiceError);
      expect(err).toMatchObject({ status: 401, message: expect.stringContaining('bad token') });
      expect(await store.getMark('events')).toBeUndefined();
    } finally {
      await transport.close();
    }
  });
});
