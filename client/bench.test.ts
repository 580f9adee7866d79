import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runClientBench } from './bench.ts';
import { createFakeContentService } from './sync/testing/fakeContentService.ts';
import { serveFake, type FakeHttpServer } from './sync/testing/fakeHttpServer.ts';

const TOKEN = 'cst_bench';
const service = createFakeContentService();
let server: FakeHttpServer;

beforeAll(async () => {
  for (let i = 0; i < 45; i++) service.create('events', { wfstatus: i % 9 === 0 ? 'deleted' : 'approved' });
  for (let i = 0; i < 12; i++) service.create('venues');
  server = await serveFake(service, { token: TOKEN });
});
afterAll(() => server.close());

describe('runClientBench', () => {
  it('when run against a service, then it counts every distinct item once, per collection and in total, with the rate and the throttled waits', async () => {
    server.throttleNext = 1;
    const lines: string[] = [];
    const result = await runClientBench({
      baseUrl: server.baseUrl,
      token: TOKEN,
      collections: ['events', 'venues', 'routes'],
      size: 10,
      print: (l) => lines.push(l),
    });
    expect(result).toMatchObject({
      store: 'memory',
      size: 10,
      items: 57,
      upserted: 52,
      removed: 0,
      throttledWaits: 1,
      waitsByReason: { 'rate-limited': 1 },
    });
    expect(result.collections.map((c) => [c.collection, c.items, c.pages])).toEqual([
      ['events', 45, 5],
      ['venues', 12, 2],
      ['routes', 0, 1],
    ]);
    expect(result.itemsPerSecond).toBe(Math.round(57 / result.seconds));
    expect(lines.at(-1)).toMatch(
      /^client backfill \(memory mirror, size 10\): 57 items in [\d.]+ s = \d+ items\/s, 1 throttled waits$/,
    );
  });
});
