import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody } from '../support/items/itemsHarness.ts';
import { skipPostgres } from '../support/storage/testDb.ts';
import { waitFor } from '../support/waitFor.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scaleout/database.ts';
import { call } from '../support/scaleout/http.ts';
import { createInstanceGroup, type Instance, type InstanceGroup } from '../support/scaleout/instance.ts';
import { startRecordingReceiver, type RecordingReceiver } from '../support/scaleout/recordingReceiver.ts';

// kill -9 in the middle of webhook deliveries and of writes, on PostgreSQL and on PGlite (a
// file-based DATA_DIR, one instance): after a restart every acknowledged write is there and every
// delivery that was in flight arrives with the X-Service-Delivery it had. On PostgreSQL also the
// database dropping the instance's connections mid-request: a 503, then recovery without restart.

const BOOTSTRAP = `bootstrap-${randomBytes(24).toString('base64url')}`;
const ORGANISATION = 'amsterdam-marketing'; // of the demo account `amsterdam`, seeded at first start
const ACCOUNT = 'amsterdam';
const RECEIVERS = 3;
const LEASE_MS = 4000;
const HOLD_FOREVER_MS = 10 * 60 * 1000;

interface Storage {
  env: Record<string, string>;
  /** A connection to the instance's database for the connection-loss test (PostgreSQL only). */
  database?: ScratchDatabase;
  drop(): Promise<void>;
}

async function openStorage(engine: 'postgres' | 'pglite'): Promise<Storage> {
  // DATA_DIR: the PGlite database, or on PostgreSQL only where asset files would go.
  const dataDir = await mkdtemp(join(tmpdir(), `crash-${engine}-`));
  const removeDir = () => rm(dataDir, { recursive: true, force: true });
  if (engine === 'postgres') {
    const database = await createScratchDatabase('crash');
    return {
      env: { DATABASE_URL: database.url, DATA_DIR: dataDir },
      database,
      drop: async () => {
        await database.drop();
        await removeDir();
      },
    };
  }
  return { env: { DATA_DIR: dataDir }, drop: removeDir };
}

for (const engine of ['postgres', 'pglite'] as const) {
  describe.skipIf(engine === 'postgres' && skipPostgres())(`crash safety [${engine}]`, () => {
    let storage: Storage;
    let group: InstanceGroup;
    let receivers: RecordingReceiver[] = [];
    /** The instance running after the crash test. */
    let restarted: Instance | undefined;

    beforeAll(async () => {
      storage = await openStorage(engine);
      group = createInstanceGroup({
        ...storage.env,
        BOOTSTRAP_ADMIN_TOKEN: BOOTSTRAP,
        SEED_DEMO_DATA: 'true',
        ALLOW_INSECURE_CALLBACKS: '1',
        WEBHOOK_TIMEOUT: '3s',
        WEBHOOK_LEASE: `${LEASE_MS}ms`,
        WEBHOOK_RETRY_SCHEDULE: '500ms,500ms,1m',
        LOG_LEVEL: 'warn',
      });
      receivers = await Promise.all(Array.from({ length: RECEIVERS }, () => startRecordingReceiver()));
    });

    afterAll(async () => {
      await group?.closeAll();
      await Promise.all(receivers.map((r) => r.close()));
      await storage?.drop();
    });

    it('when the instance is killed -9 during webhook deliveries and writes, then after a restart every acknowledged write is there and every delivery in flight arrives with the same X-Service-Delivery [HOOK-021] [HOOK-012]', async () => {
      const first = await group.start('first', {}, { startTimeoutMs: 90_000 });
      // Receivers that take the request and never answer: every delivery stays in flight.
      for (const r of receivers) r.plan(() => ({ status: 204, delayMs: HOLD_FOREVER_MS }));
      for (const [i, r] of receivers.entries()) {
        const token = await call(first.baseUrl, 'POST', `/accounts/${ACCOUNT}/tokens`, {
          token: BOOTSTRAP,
          body: { name: `crash receiver ${i}`, roles: ['ROLE_EXTERNAL_USER'], callBackUrl: `${r.url}/hook` },
        });
        expect(token.status, JSON.stringify(token.body)).toBe(201);
      }

      // A client firing creates, four at a time, remembering which ones were acknowledged.
      const acknowledged: string[] = [];
      let unanswered = 0;
      let firing = true;
      const writers = Array.from({ length: 4 }, async () => {
        while (firing) {
          let answer;
          try {
            answer = await call(first.baseUrl, 'POST', '/events', {
              token: BOOTSTRAP,
              body: eventBody({ userorganisation: ORGANISATION, wfstatus: 'approved' }),
            });
          } catch {
            unanswered++; // the instance died with this request in flight (or refused the next one)
            return;
          }
          if (answer.status !== 201) throw new Error(`unexpected ${answer.status}: ${JSON.stringify(answer.body)}`);
          acknowledged.push(answer.body.id as string);
        }
      });
      const writing = Promise.allSettled(writers);

      await waitFor(
        'a delivery in flight at every receiver and 20 acknowledged writes',
        () => receivers.every((r) => r.requests.length > 0) && acknowledged.length >= 20,
        30_000,
        50,
      );
      await first.crash();
      const killedAt = Date.now();
      const results = await writing;
      firing = false;
      expect(
        results.every((r) => r.status === 'fulfilled'),
        JSON.stringify(results.filter((r) => r.status === 'rejected')),
      ).toBe(true);
      const beforeCrash = receivers.map((r) => r.requests.length);
      const inFlight = receivers.map((r) => new Map(r.requests.map((q) => [q.deliveryId, q.body])));
      expect(receivers.flatMap((r) => r.requests).every((q) => q.answered === null)).toBe(true);

      // Restart on the same storage; the receivers now answer at once.
      for (const r of receivers) r.plan(() => ({ status: 204 }));
      restarted = await group.start('restarted', {}, { startTimeoutMs: 90_000 });
      const upAfterMs = Date.now() - killedAt;

      // Every acknowledged write is there.
      for (const id of acknowledged) {
        const read = await call(restarted.baseUrl, 'GET', `/events/${id}`, { token: BOOTSTRAP });
        expect(read.status, id).toBe(200);
      }

      // Every delivery in flight arrives again, same id, same bytes; and every acknowledged write reaches every receiver.
      const deliveredItems = (r: RecordingReceiver) =>
        new Set(r.requests.filter((q) => q.answered === 204).flatMap((q) => q.items.map((i) => i.id.split('_')[0]!)));
      await waitFor(
        'the deliveries in flight at the crash, and every acknowledged write, at every receiver',
        () =>
          receivers.every((r, i) => {
            const after = r.requests.slice(beforeCrash[i]);
            const redelivered = [...inFlight[i]!.keys()].every((id) =>
              after.some((q) => q.deliveryId === id && q.answered === 204),
            );
            const items = deliveredItems(r);
            return redelivered && acknowledged.every((id) => items.has(id));
          }),
        45_000,
        50,
      );
      let firstRedeliveryMs = Infinity;
      for (const [i, r] of receivers.entries()) {
        for (const q of r.requests.slice(beforeCrash[i])) {
          const before = inFlight[i]!.get(q.deliveryId);
          if (before === undefined) continue;
          expect(q.body.equals(before), `delivery ${q.deliveryId} re-sent with other bytes`).toBe(true);
          firstRedeliveryMs = Math.min(firstRedeliveryMs, q.receivedAt - killedAt);
        }
      }
      console.info(
        `crash [${engine}]: ${acknowledged.length} writes acknowledged before kill -9, ${unanswered} in flight; ` +
          `${inFlight.reduce((n, m) => n + m.size, 0)} deliveries in flight at ${RECEIVERS} receivers; ` +
          `restarted and listening ${upAfterMs} ms after the kill; first re-sent delivery ${firstRedeliveryMs} ms after the kill (lease ${LEASE_MS} ms); ` +
          `all acknowledged writes present and delivered`,
      );
    }, 150_000);

    // PostgreSQL only: PGlite runs inside the process and has no connection to lose.
    if (engine === 'postgres')
      it("when PostgreSQL drops the instance's connections in the middle of requests, then those get a 503 in the error shape, and the next requests succeed without a restart", async () => {
        const instance = restarted!;
        expect(instance, 'the instance of the crash test').toBeDefined();
        const database = storage.database!;
        const blocker = new pg.Client({ connectionString: database.url });
        blocker.on('error', () => {});
        await blocker.connect();
        try {
          // Hold every request that touches items: a read, a write and a detail read wait on the lock.
          await blocker.query('BEGIN');
          await blocker.query('LOCK TABLE items IN ACCESS EXCLUSIVE MODE');
          const existing = (await call(instance.baseUrl, 'GET', '/actuator/health')).status;
          expect(existing).toBe(200);
          const started = performance.now();
          // Settled either way, so a failure below leaves no rejection unhandled.
          const requests = [
            call(instance.baseUrl, 'GET', '/events?size=5', { token: BOOTSTRAP }),
            call(instance.baseUrl, 'POST', '/events', {
              token: BOOTSTRAP,
              body: eventBody({ userorganisation: ORGANISATION }),
            }),
            call(instance.baseUrl, 'GET', '/locations?size=1', { token: BOOTSTRAP }),
          ].map((request) =>
            request.catch((error: unknown) => ({ status: 0, headers: new Headers(), body: String(error) })),
          );
          await waitFor(
            'three requests waiting on the lock',
            async () => {
              const rows = await database.admin<{ n: string }>(
                `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'content-service' AND wait_event_type = 'Lock'`,
                [database.name],
              );
              return Number(rows[0]!.n) >= 3;
            },
            15_000,
            50,
          );
          // Every connection of the instance, busy or idle, as a failover or an admin would.
          // (The call is in the select list, so it runs only for the rows the WHERE clause keeps.)
          const killed = await database.admin<{ pid: number; terminated: boolean }>(
            `SELECT pid, pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE datname = $1 AND application_name = 'content-service'`,
            [database.name],
          );
          expect(killed.length).toBeGreaterThanOrEqual(3);
          await blocker.query('ROLLBACK');
          const answers = await Promise.all(requests);
          const answeredMs = performance.now() - started;
          for (const answer of answers) {
            expect(answer.status, JSON.stringify(answer.body)).toBe(503);
            expect(answer.body).toEqual({
              status: 503,
              error: 'Service Unavailable',
              message: expect.stringMatching(/database/),
            });
            expect(JSON.stringify(answer.body)).not.toMatch(/terminating|administrator|pg_|postgres/i);
            expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
          }

          // The same process, its pool refilled: the next requests work.
          expect((await call(instance.baseUrl, 'GET', '/actuator/health')).body).toEqual({ status: 'UP' });
          expect((await call(instance.baseUrl, 'GET', '/events?size=5', { token: BOOTSTRAP })).status).toBe(200);
          const created = await call(instance.baseUrl, 'POST', '/events', {
            token: BOOTSTRAP,
            body: eventBody({ userorganisation: ORGANISATION }),
          });
          expect(created.status, JSON.stringify(created.body)).toBe(201);
          expect((await call(instance.baseUrl, 'GET', `/events/${created.body.id}`, { token: BOOTSTRAP })).status).toBe(
            200,
          );
          await expect(
            Promise.race([
              instance.exited.then(() => 'exited'),
              new Promise((resolve) => setTimeout(() => resolve('running'), 200)),
            ]),
          ).resolves.toBe('running');
          console.info(
            `connection loss [postgres]: ${killed.length} backends terminated; ${answers.length} waiting requests answered 503 ${answeredMs.toFixed(0)} ms after they were sent; next requests 200/201 on the same process`,
          );
        } finally {
          await blocker.end().catch(() => {});
        }
      }, 60_000);
  });
}
