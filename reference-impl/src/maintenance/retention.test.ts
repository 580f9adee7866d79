import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiskFileStore } from '../assets/diskFileStore.ts';
import { createMemoryFileStore } from '../assets/memoryFileStore.ts';
import { DAY, HOUR } from '../config.ts';
import { createLogger } from '../logger.ts';
import { createTestUser } from '../../test/support/sessions/testUsers.ts';
import { insertFeedRun } from '../storage/feeds/insertFeedRun.ts';
import { insertSession } from '../storage/sessions/insertSession.ts';
import { insertDelivery } from '../storage/webhooks/insertDelivery.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { createTestAccount, createTestToken } from '../../test/support/fixtures.ts';
import { runRetention, startRetentionJob } from './retention.ts';

const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW - ms);
const EMPTY_REPORT = {
  fetched: 0,
  converted: 0,
  imported: { created: 0, updated: 0, unchanged: 0 },
  skipped: 0,
  unmappedCategories: [],
  errors: [],
};

describeEachEngine('retention (DEC-MISC-004)', (engine) => {
  const db = () => engine.db;
  const accountId = `acc-${randomUUID().slice(0, 8)}`;
  let userId: string;
  const retention = () => runRetention({ db: db(), assets: createMemoryFileStore(), now: () => NOW });

  beforeAll(async () => {
    await createTestAccount(db(), { accountId, organisations: [`${accountId}-org`] });
    userId = (await createTestUser(db(), { accountId })).id;
  });

  async function session(params: { refreshExpires: Date; revoked?: Date; spent?: Date[] }): Promise<string> {
    const id = randomUUID();
    await insertSession(db(), {
      id,
      userId,
      refreshTokenHash: randomBytes(32).toString('hex'),
      refreshExpires: params.refreshExpires,
      created: ago(20 * DAY),
    });
    if (params.revoked !== undefined)
      await db().query(`UPDATE sessions SET revoked = $2, revoked_reason = 'logout' WHERE id = $1`, [
        id,
        params.revoked,
      ]);
    for (const spent of params.spent ?? []) {
      await db().query('INSERT INTO spent_refresh_tokens (token_hash, session_id, spent) VALUES ($1, $2, $3)', [
        randomBytes(32).toString('hex'),
        id,
        spent,
      ]);
    }
    return id;
  }
  const sessionIds = async (ids: string[]) =>
    (await db().query<{ id: string }>('SELECT id FROM sessions WHERE id = ANY($1::uuid[])', [ids])).rows
      .map((r) => r.id)
      .sort();
  const spentOf = async (id: string) =>
    (
      await db().query<{ spent: Date }>('SELECT spent FROM spent_refresh_tokens WHERE session_id = $1 ORDER BY spent', [
        id,
      ])
    ).rows.map((r) => r.spent.toISOString());

  it('when sessions ended more than a day ago (refresh token expired, or revoked), then they go with their spent refresh tokens; younger and live ones stay', async () => {
    const expiredLong = await session({ refreshExpires: ago(2 * DAY), spent: [ago(3 * DAY)] });
    const expiredRecently = await session({ refreshExpires: ago(12 * HOUR) });
    const revokedLong = await session({ refreshExpires: new Date(NOW + 10 * DAY), revoked: ago(DAY + 1) });
    const revokedRecently = await session({ refreshExpires: new Date(NOW + 10 * DAY), revoked: ago(HOUR) });
    const live = await session({ refreshExpires: new Date(NOW + 13 * DAY) });
    const all = [expiredLong, expiredRecently, revokedLong, revokedRecently, live];

    const result = await retention();
    expect(result.sessions).toBeGreaterThanOrEqual(2);
    expect(await sessionIds(all)).toEqual([expiredRecently, revokedRecently, live].sort());
    const orphans = await db().query('SELECT token_hash FROM spent_refresh_tokens WHERE session_id = ANY($1::uuid[])', [
      [expiredLong, revokedLong],
    ]);
    expect(orphans.rows).toEqual([]);
  });

  it('when a live session has refresh tokens spent more than 15 days ago, then those records go and the recent ones stay', async () => {
    const live = await session({
      refreshExpires: new Date(NOW + 14 * DAY),
      spent: [ago(40 * DAY), ago(15 * DAY + 1), ago(15 * DAY - 1), ago(HOUR)],
    });
    const result = await retention();
    expect(result.spentRefreshTokens).toBeGreaterThanOrEqual(2);
    expect(await spentOf(live)).toEqual([ago(15 * DAY - 1).toISOString(), ago(HOUR).toISOString()]);
    expect(await sessionIds([live])).toEqual([live]);
  });

  it('when feed runs are older than 30 days, then finished ones go, except the latest run of each feed; running runs stay', async () => {
    const feed = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;
    const [busy, quiet, gone, running] = [feed('busy'), feed('quiet'), feed('gone'), feed('running')];
    const run = async (feedId: string, startedAt: Date, status: 'completed' | 'failed' | 'running' = 'completed') => {
      const id = randomUUID();
      await insertFeedRun(db(), {
        id,
        feedId,
        accountId,
        trigger: 'schedule',
        options: {},
        startedAt,
        report: EMPTY_REPORT,
      });
      if (status !== 'running')
        await db().query('UPDATE feed_runs SET status = $2, finished_at = started_at WHERE id = $1', [id, status]);
      return id;
    };
    const busyOld = [await run(busy, ago(40 * DAY)), await run(busy, ago(30 * DAY + 1), 'failed')];
    const busyKept = [await run(busy, ago(30 * DAY - 1)), await run(busy, ago(HOUR))];
    const quietOnly = await run(quiet, ago(200 * DAY));
    const goneOld = await run(gone, ago(90 * DAY));
    const goneLatest = await run(gone, ago(60 * DAY), 'failed');
    const runningOld = await run(running, ago(50 * DAY));
    const runningStale = await run(running, ago(45 * DAY), 'running');

    const result = await retention();
    expect(result.feedRuns).toBeGreaterThanOrEqual(4);
    const left = (
      await db().query<{ id: string }>('SELECT id FROM feed_runs WHERE feed_id = ANY($1::text[])', [
        [busy, quiet, gone, running],
      ])
    ).rows
      .map((r) => r.id)
      .sort();
    expect(left).toEqual([...busyKept, quietOnly, goneLatest, runningStale].sort());
    expect(left).not.toContain(busyOld[0]);
    expect(left).not.toContain(goneOld);
    expect(left).not.toContain(runningOld);
  });

  it('when settled webhook deliveries are older than 7 days, then they go with their attempts; younger and pending ones stay [DEC-HOOK-017]', async () => {
    const tokenId = (await createTestToken(db(), { accountId, callbackUrl: 'https://receiver.example/hook' })).id;
    const delivery = async (createdAt: Date, state: 'pending' | 'delivered' | 'failed' | 'dropped') => {
      const id = randomUUID();
      await insertDelivery(db(), { id, tokenId, body: Buffer.from('{"items":[]}'), itemCount: 1, createdAt });
      await db().query('UPDATE webhook_deliveries SET state = $2 WHERE id = $1', [id, state]);
      await db().query(
        `INSERT INTO webhook_attempts (delivery_id, attempt, at, status, latency_ms, outcome) VALUES ($1, 1, $2, 503, 5, 'transient')`,
        [id, createdAt],
      );
      return id;
    };
    const gone = [
      await delivery(ago(8 * DAY), 'delivered'),
      await delivery(ago(7 * DAY + 1), 'failed'),
      await delivery(ago(30 * DAY), 'dropped'),
    ];
    const kept = [
      await delivery(ago(7 * DAY - 1), 'delivered'),
      await delivery(ago(HOUR), 'failed'),
      await delivery(ago(10 * DAY), 'pending'),
    ];

    const result = await retention();
    expect(result.webhookDeliveries).toBeGreaterThanOrEqual(3);
    const left = (
      await db().query<{ id: string }>('SELECT id FROM webhook_deliveries WHERE token_id = $1', [tokenId])
    ).rows
      .map((r) => r.id)
      .sort();
    expect(left).toEqual([...kept].sort());
    const attempts = (
      await db().query<{ id: string }>(
        'SELECT delivery_id AS id FROM webhook_attempts WHERE delivery_id = ANY($1::uuid[])',
        [[...gone, ...kept]],
      )
    ).rows
      .map((r) => r.id)
      .sort();
    expect(attempts).toEqual([...kept].sort());
  });
});

describe('staged uploads (DEC-MISC-004)', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'retention-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('when staged upload files were last written more than an hour ago, then they are removed; fresh ones and stored assets stay', async () => {
    const store = createDiskFileStore({ directory: root });
    const staging = join(root, '.staging');
    await mkdir(staging, { recursive: true });
    const stale = join(staging, `${randomUUID()}.part`);
    const fresh = join(staging, `${randomUUID()}.part`);
    await writeFile(stale, 'left by a crash');
    await writeFile(fresh, 'an upload in progress');
    const old = (Date.now() - HOUR - 60_000) / 1000;
    await utimes(stale, old, old);
    const staged = store.stage();
    await staged.write(Buffer.from('%PDF-1.4\n'));
    const id = randomUUID();
    await staged.commit(id);
    const assetTime = (Date.now() - 10 * DAY) / 1000;
    await utimes(join(root, id.slice(0, 2), id), assetTime, assetTime);

    const result = await runRetention({ db: { query: async () => ({ rows: [] }) }, assets: store, now: Date.now });
    expect(result.stagedUploads).toBe(1);
    expect(await readdir(staging)).toEqual([fresh.split('/').pop()]);
    expect(await store.count()).toBe(1);
    expect(await store.open(id)).toBeDefined();
  });

  it('when nothing was ever staged, then the pass finds nothing to do', async () => {
    const store = createDiskFileStore({ directory: join(root, 'never-used') });
    expect(await store.pruneStaged(new Date())).toBe(0);
    expect(await createMemoryFileStore().pruneStaged(new Date())).toBe(0);
  });
});

describe('startRetentionJob', () => {
  it('when started, then it runs a pass at once and then every interval, survives a failing pass, and stop() ends it', async () => {
    let passes = 0;
    const db = {
      query: async () => {
        passes++;
        if (passes === 1) throw new Error('storage away');
        return { rows: [] };
      },
    };
    const job = startRetentionJob({
      db,
      assets: createMemoryFileStore(),
      now: Date.now,
      logger: createLogger({ level: 'silent' }),
      everyMs: 20,
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    await job.stop();
    const after = passes;
    expect(after).toBeGreaterThanOrEqual(4); // the failed first query, then four queries a pass
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(passes).toBe(after);
  });
});
