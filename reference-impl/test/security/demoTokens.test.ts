import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../support/scaleout/database.ts';
import { createInstanceGroup, type InstanceGroup } from '../support/scaleout/instance.ts';
import { ENGINES, skipPostgres } from '../support/storage/testDb.ts';

// Demo data that cannot leak (issue 30): the demo seed prints a super-admin token and admin users'
// passwords. A start with demo data off must delete them, so that the last printed values stop
// working; NODE_ENV=production turns the seed off by default; while demo tokens exist the output
// says so loudly; and an empty store is called empty. Real processes, restarted on one store, on
// both engines.

const SUPER_ADMIN = /super admin\s+(cst_[A-Za-z0-9_-]{43})/;
const DEMO_ADMIN_USER = /^\s+(admin@amsterdam\.example)\s+(\S+)\s+\(ROLE_ADMIN/m;
const BANNER = 'DEMO MODE';
const START_TIMEOUT_MS = 120_000;

for (const engine of ENGINES) {
  describe.skipIf(engine === 'postgres' && skipPostgres())(`demo credentials [${engine}]`, () => {
    let group: InstanceGroup;
    let dataDir: string;
    let database: ScratchDatabase | undefined;
    /** The storage settings of one store, the same at every start. */
    let store: Record<string, string>;

    beforeAll(async () => {
      group = createInstanceGroup({ LOG_LEVEL: 'warn' });
      dataDir = await mkdtemp(join(tmpdir(), 'demo-tokens-'));
      if (engine === 'postgres') database = await createScratchDatabase('demo_tokens');
      store = { DATA_DIR: dataDir, ...(database === undefined ? {} : { DATABASE_URL: database.url }) };
    }, START_TIMEOUT_MS);
    afterAll(async () => {
      await group?.closeAll();
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    });

    it(
      'when the service restarts with SEED_DEMO_DATA=false, then the last printed super-admin token, the demo users and their sessions no longer work, and no banner shows',
      async () => {
        const seeded = await group.start(
          'seeded',
          { ...store, SEED_DEMO_DATA: 'true' },
          { startTimeoutMs: START_TIMEOUT_MS },
        );
        const output = seeded.output();
        expect(output).toContain(BANNER);
        const superAdmin = SUPER_ADMIN.exec(output)?.[1];
        const [, username, password] = DEMO_ADMIN_USER.exec(output) ?? [];
        expect(superAdmin, output).toBeDefined();
        expect(username, output).toBeDefined();
        // The logger writes asynchronously: its line may arrive after the printed summary.
        await expect.poll(() => seeded.logLines().some((line) => String(line.msg).startsWith('demo mode:'))).toBe(true);
        const everything = (baseUrl: string, token: string) =>
          fetch(`${baseUrl}/events?wfstatus=deleted`, { headers: { authorization: `Bearer ${token}` } });
        const signIn = (baseUrl: string) =>
          fetch(`${baseUrl}/auth/signin`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username, password }),
          });
        expect((await everything(seeded.baseUrl, superAdmin!)).status).toBe(200);
        const session = await signIn(seeded.baseUrl);
        expect(session.status).toBe(200);
        const { access_token: accessToken } = (await session.json()) as { access_token: string };
        expect((await everything(seeded.baseUrl, accessToken)).status).toBe(200);
        expect(await seeded.stop()).toBe(0);

        const off = await group.start(
          'off',
          { ...store, SEED_DEMO_DATA: 'false' },
          { startTimeoutMs: START_TIMEOUT_MS },
        );
        expect(off.output()).not.toContain(BANNER);
        expect(off.output()).not.toMatch(/cst_[A-Za-z0-9_-]{43}/);
        expect(off.output()).toMatch(/Deleted the \d+ demo tokens and 6 demo users of an earlier seed/);
        expect(off.output()).toContain('The store holds data already');
        expect((await everything(off.baseUrl, superAdmin!)).status).toBe(401);
        expect((await everything(off.baseUrl, accessToken)).status).toBe(401);
        expect((await signIn(off.baseUrl)).status).toBe(401);
        expect(await off.stop()).toBe(0);

        // Deleted for good: seeding on again renews nothing and prints no token.
        const again = await group.start(
          'again',
          { ...store, SEED_DEMO_DATA: 'true' },
          { startTimeoutMs: START_TIMEOUT_MS },
        );
        expect(again.output()).not.toContain(BANNER);
        expect(again.output()).not.toMatch(/cst_[A-Za-z0-9_-]{43}/);
        expect((await everything(again.baseUrl, superAdmin!)).status).toBe(401);
        expect(await again.stop()).toBe(0);
      },
      4 * START_TIMEOUT_MS,
    );
  });
}

describe('demo data and NODE_ENV=production', () => {
  let group: InstanceGroup;
  let dataDir: string;
  beforeAll(async () => {
    group = createInstanceGroup({ LOG_LEVEL: 'warn' });
    dataDir = await mkdtemp(join(tmpdir(), 'demo-production-'));
  });
  afterAll(async () => {
    await group?.closeAll();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'when the embedded store is empty and NODE_ENV=production, then nothing is seeded, no token is printed and the store is called empty',
    async () => {
      // An empty value counts as unset: SEED_DEMO_DATA takes its default.
      const started = await group.start(
        'production',
        { DATA_DIR: dataDir, NODE_ENV: 'production', SEED_DEMO_DATA: '' },
        { startTimeoutMs: START_TIMEOUT_MS },
      );
      const output = started.output();
      expect(output).not.toContain(BANNER);
      expect(output).not.toMatch(/cst_[A-Za-z0-9_-]{43}/);
      expect(output).toContain('Demo data is off');
      expect(output).toContain('The store is empty: there is no token yet.');
      expect(output).not.toContain('holds data already');
      expect(await started.stop()).toBe(0);
    },
    2 * START_TIMEOUT_MS,
  );
});
