import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from './app.ts';
import { makeImage, uploadAsset } from '../test/support/assets/assetFixtures.ts';
import { startPartnerServer, writeFeedsFile } from '../test/support/feeds/partnerServer.ts';
import { createLogger } from './logger.ts';
import { createServices, startBackgroundServices } from './services.ts';
import { getFeedRun } from './storage/feeds/getFeedRun.ts';
import { runMigrations } from './storage/migrate.ts';
import { openDb } from './storage/openDb.ts';
import { ALL_STATUSES, createTestAccount, createTestToken } from '../test/support/fixtures.ts';
import { testConfig } from '../test/support/testApp.ts';

// The app and the background services of one services object share what they both use: one asset store (retention prunes the store uploads are staged in) and one FeedRuns
// (shutdown waits for a run started through the route, not only for the scheduler's).

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startServices(env: Record<string, string> = {}, accountId = `acc-${randomUUID().slice(0, 8)}`) {
  const config = testConfig(env);
  const db = await openDb(config);
  cleanups.push(() => db.close());
  await runMigrations(db);
  const stops: Array<{ name: string; stop: () => Promise<void> | void }> = [];
  const stopAll = async () => {
    for (const step of stops.splice(0).reverse()) await step.stop();
  };
  cleanups.push(stopAll);
  const lifecycle = {
    onStop: (name: string, stop: () => Promise<void> | void) => {
      stops.push({ name, stop });
    },
  };
  const services = createServices(config, { db, logger: createLogger({ level: 'silent' }), now: Date.now });
  const server: Server = createServer(createApp(services));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const closeServer = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  cleanups.push(closeServer);
  await createTestAccount(db, { accountId, organisations: [`${accountId}-org`] });
  const admin = (await createTestToken(db, { accountId, roles: ['ROLE_ADMIN'], wfstatus: ALL_STATUSES })).token;
  return {
    services,
    lifecycle,
    db,
    stops,
    admin,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
    closeServer,
    stopAll,
  };
}

describe('createServices and startBackgroundServices', () => {
  it('when an upload is staged through the app, then the retention job prunes that same store (DATA_DIR=:memory:, DEC-MISC-004)', async () => {
    const service = await startServices();
    const store = service.services.assetStore;
    const uploaded = await uploadAsset(service.baseUrl, service.admin, {
      bytes: await makeImage('png', 4, 4),
      filename: 'een.png',
    });
    expect(uploaded.status).toBe(201);
    expect(await store.count()).toBe(1);

    const prunedBefore: Date[] = [];
    const prune = store.pruneStaged;
    store.pruneStaged = (before) => {
      prunedBefore.push(before);
      return prune(before);
    };
    await startBackgroundServices(service.services, service.lifecycle);
    const deadline = Date.now() + 10_000;
    while (prunedBefore.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(prunedBefore).toHaveLength(1);
  }, 60_000);

  it('when a full feed run was started through POST …/fetchAndConvertOnce, then the stop steps wait for it to end (FEED-007, DEC-FEED-004)', async () => {
    const partner = await startPartnerServer();
    cleanups.push(() => partner.close());
    const feedId = `shutdown-${randomUUID().slice(0, 8)}`;
    const accountId = `acc-${randomUUID().slice(0, 8)}`;
    const feedsFile = writeFeedsFile(
      [
        {
          id: feedId,
          name: feedId,
          accountId,
          userorganisation: `${accountId}-org`,
          url: partner.url(`/${feedId}.json`),
        },
      ],
      partner.cert,
    );
    cleanups.push(() => feedsFile.remove());
    const service = await startServices({ FEEDS_FILE: feedsFile.path }, accountId);
    await startBackgroundServices(service.services, service.lifecycle);
    expect(service.stops.map((s) => s.name)).toEqual(expect.arrayContaining(['feed runs', 'feed scheduler']));

    partner.serve(`/${feedId}.json`, {
      body: { entries: [{ id: 'ev-1', trcItemDetails: [{ lang: 'nl', title: 'Titel', shortdescription: 'Kort' }] }] },
      delayMs: 1000,
    });
    const started = await fetch(`${service.baseUrl}/feeds/${feedId}/fetchAndConvertOnce`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.admin}` },
    });
    expect(started.status).toBe(202);
    const { runId } = (await started.json()) as { runId: string };

    await service.closeServer();
    await service.stopAll();
    const run = (await getFeedRun(service.db, { feedId, runId }))!;
    expect(run.status).not.toBe('running');
    expect(run.report.fetched).toBe(1);
  }, 60_000);
});
