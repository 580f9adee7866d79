import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { HOUR, MINUTE, loadConfig } from '../config.ts';
import { createOntologyCache } from '../dictionary/ontologyCache.ts';
import { createLogger } from '../logger.ts';
import { emptyFeedRunReport } from '../storage/feeds/feedRunRow.ts';
import { getFeedRun } from '../storage/feeds/getFeedRun.ts';
import { insertFeedRun } from '../storage/feeds/insertFeedRun.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { createTestAccount } from '../../test/support/fixtures.ts';
import { ignoreItemChanges } from '../webhooks/itemChange.ts';
import type { FeedDefinition } from './feedConfig.ts';
import { createFeedRuns, STALE_RUN_AFTER, type FeedRuns } from './feedRuns.ts';
import { createFeedScheduler, minuteInCycle, type FeedScheduler } from './feedScheduler.ts';
import { createFeedService } from './feedService.ts';
import { startFeedScheduler } from './startFeedScheduler.ts';

// The poller of FEED-008, driven directly (poll) and through its croner jobs (start/stop), with
// partner documents served from memory.

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describeEachEngine('feed scheduler', (ctx) => {
  const organisation = `org-${randomUUID().slice(0, 8)}`;
  const accountId = `acc-${randomUUID().slice(0, 8)}`;
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = createLogger({
    level: 'info',
    destination: {
      write: (line: string) => {
        lines.push(JSON.parse(line));
      },
    },
  });
  let gate: Promise<void> = Promise.resolve();
  let clock = Date.now();
  let scheduler: FeedScheduler | undefined;

  const feed = (id: string): FeedDefinition => ({
    id,
    name: id,
    accountId,
    userorganisation: organisation,
    url: `https://partner.invalid/${id}.json`,
    entitytype: 'EVENEMENT',
    subFeeds: [],
  });
  let runs: FeedRuns;
  beforeAll(async () => {
    await createTestAccount(ctx.db, { accountId, organisations: [organisation] });
    runs = createFeedRuns({
      db: ctx.db,
      logger,
      now: () => clock,
      itemWrites: { recordItemChange: ignoreItemChanges, ontologies: createOntologyCache(ctx.db) },
      fetchDocument: () => async (url) => {
        await gate;
        return { entries: [{ id: url.split('/').pop(), trcItemDetails: [{ lang: 'nl', title: 'Polled' }] }] };
      },
    });
  });
  afterEach(async () => {
    await scheduler?.stop();
    scheduler = undefined;
    clock = Date.now();
  });
  const schedulerFor = (feeds: FeedDefinition[]) =>
    createFeedScheduler({ feeds, runs, db: ctx.db, logger, now: () => clock, maxJitterMs: 0 });

  it('when started, then every feed has a poll within the next 4 hours at its own minute of the cycle, and none after stop [FEED-008]', async () => {
    const feeds = [feed(`sched-a-${randomUUID()}`), feed(`sched-b-${randomUUID()}`)];
    scheduler = schedulerFor(feeds);
    scheduler.start();
    const now = Date.now();
    for (const f of feeds) {
      const next = scheduler.nextPolls().get(f.id)!;
      expect(next.getTime()).toBeGreaterThan(now);
      expect(next.getTime()).toBeLessThanOrEqual(now + 4 * HOUR);
      const minuteOfCycle = (next.getUTCHours() % 4) * 60 + next.getUTCMinutes();
      expect(minuteOfCycle).toBe(minuteInCycle(f.id, 4));
    }
    expect(
      lines.some((l) => l.msg.includes(`feed ${feeds[0]!.id} points at partner.invalid, a placeholder host`)),
    ).toBe(true);
    await scheduler.stop();
    expect([...scheduler.nextPolls().values()]).toEqual([null, null]);
  });

  it('when a feed is polled, then it runs as a scheduled run; polled again soon after, it is skipped as recent [FEED-008]', async () => {
    const f = feed(`sched-poll-${randomUUID()}`);
    scheduler = schedulerFor([f]);
    const first = await scheduler.poll(f);
    expect(first.kind).toBe('ran');
    if (first.kind !== 'ran') return;
    expect(first.run).toMatchObject({
      status: 'completed',
      trigger: 'schedule',
      report: { fetched: 1, imported: { created: 1 } },
    });
    expect((await scheduler.poll(f)).kind).toBe('recent');
    clock += 3 * HOUR; // past half a cycle: due again
    const later = await scheduler.poll(f);
    expect(later.kind === 'ran' && later.run.report.imported).toEqual({ created: 0, updated: 0, unchanged: 1 });
  });

  it('when a run of the feed is in progress, then the poll is skipped [FEED-008] [DEC-FEED-004]', async () => {
    const f = feed(`sched-busy-${randomUUID()}`);
    const hold = deferred();
    gate = hold.promise;
    const manual = await runs.start(f, { trigger: 'manual', scope: {} });
    scheduler = schedulerFor([f]);
    expect(await scheduler.poll(f)).toEqual({ kind: 'busy', runId: manual.run.runId });
    hold.resolve();
    gate = Promise.resolve();
    expect((await manual.done).status).toBe('completed');
  });

  it('when stopped while a run imports, then stop waits for the run to end', async () => {
    const f = feed(`sched-stop-${randomUUID()}`);
    const hold = deferred();
    gate = hold.promise;
    const started = await runs.start(f, { trigger: 'schedule', scope: {} });
    scheduler = schedulerFor([f]);
    scheduler.start();
    let stopped = false;
    const stopping = scheduler.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped).toBe(false);
    hold.resolve();
    gate = Promise.resolve();
    await stopping;
    expect((await getFeedRun(ctx.db, { feedId: f.id, runId: started.run.runId }))!.status).toBe('completed');
  });

  it('when a running run stopped sending heartbeats, then the next run fails it and proceeds', async () => {
    const f = feed(`sched-stale-${randomUUID()}`);
    const abandoned = await insertFeedRun(ctx.db, {
      id: randomUUID(),
      feedId: f.id,
      accountId,
      trigger: 'schedule',
      options: {},
      startedAt: new Date(clock - STALE_RUN_AFTER - MINUTE),
      report: emptyFeedRunReport(),
    });
    const { done } = await runs.start(f, { trigger: 'manual', scope: { size: 1 } });
    expect((await done).status).toBe('completed');
    const failed = (await getFeedRun(ctx.db, { feedId: f.id, runId: abandoned.runId }))!;
    expect(failed.status).toBe('failed');
    expect(failed.report.errors[0]!.message).toContain('the run stopped sending progress for 15 minutes');
  });

  it('when everyHours does not divide a day, then the scheduler refuses it', () => {
    expect(() => createFeedScheduler({ feeds: [], runs, db: ctx.db, logger, now: Date.now, everyHours: 5 })).toThrow(
      /divide 24/,
    );
  });

  it('when started for the server, then the configured feeds are polled and the stop is registered with the lifecycle', async () => {
    const stops: Array<{ name: string; stop: () => Promise<void> | void }> = [];
    const feedService = createFeedService({
      feedsFile: loadConfig({ LOG_LEVEL: 'silent' }).feedsFile,
      db: ctx.db,
      logger,
      now: Date.now,
      itemWrites: { recordItemChange: ignoreItemChanges, ontologies: createOntologyCache(ctx.db) },
    });
    const started = startFeedScheduler({
      feedService,
      db: ctx.db,
      logger,
      now: Date.now,
      lifecycle: {
        onStop: (name, stop) => {
          stops.push({ name, stop });
        },
      },
    });
    expect([...started.nextPolls().keys()]).toEqual(['uitagenda-amsterdam']);
    expect(started.nextPolls().get('uitagenda-amsterdam')).toBeInstanceOf(Date);
    expect(stops.map((s) => s.name)).toEqual(['feed scheduler']);
    await stops[0]!.stop();
    expect(started.nextPolls().get('uitagenda-amsterdam')).toBeNull();
  });
});
