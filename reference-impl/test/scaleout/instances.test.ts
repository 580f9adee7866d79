import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBody } from '../support/items/itemsHarness.ts';
import { listMigrations } from '../../src/storage/migrate.ts';
import { ALL_STATUSES, createTestAccount, createTestToken } from '../support/fixtures.ts';
import { waitFor } from '../support/waitFor.ts';
import { verifySignature } from '../support/webhooks/verifySignature.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scaleout/database.ts';
import { call, clientFor, randomClientIp } from '../support/scaleout/http.ts';
import { createInstanceGroup, type Instance, type InstanceGroup } from '../support/scaleout/instance.ts';
import {
  startRecordingReceiver,
  type RecordedRequest,
  type RecordingReceiver,
} from '../support/scaleout/recordingReceiver.ts';
import { skipWithoutServices, TEST_REDIS_URL } from '../support/scaleout/services.ts';

// Two instances of the reference service as separate processes on ONE PostgreSQL database and
// ONE Redis, as a deployment behind a load balancer runs them. What must hold across instances:
// migrations once, one rate limit per client IP, webhooks without duplicates, one sync order,
// ontology overrides visible everywhere at once, token changes followed by every instance.

const BOOTSTRAP = `bootstrap-${randomBytes(24).toString('base64url')}`;
const START_MS = 60_000;

describe.skipIf(skipWithoutServices({ redis: true }))('several instances on one PostgreSQL and one Redis', () => {
  let database: ScratchDatabase;
  let group: InstanceGroup;
  let a: Instance;
  let b: Instance;
  let dataDir: string;

  beforeAll(async () => {
    database = await createScratchDatabase();
    // Asset files live in DATA_DIR: one directory for both, as a shared volume would be.
    dataDir = await mkdtemp(join(tmpdir(), 'scaleout-'));
    group = createInstanceGroup({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      REDIS_URL: TEST_REDIS_URL,
      BOOTSTRAP_ADMIN_TOKEN: BOOTSTRAP,
      SEED_DEMO_DATA: 'false',
      ALLOW_INSECURE_CALLBACKS: '1',
      WEBHOOK_RETRY_SCHEDULE: '300ms,300ms,1m',
      // Each test's client has an IP of its own (X-Forwarded-For from the loopback "proxy").
      TRUST_PROXY: 'loopback',
      // Shared by every instance, as the deployment guide says.
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64url'),
    });
    // Both at the same moment, on an empty database: both migrate, under the advisory lock.
    [a, b] = await Promise.all([
      group.start('A', {}, { startTimeoutMs: START_MS }),
      group.start('B', {}, { startTimeoutMs: START_MS }),
    ]);
  }, 2 * START_MS);

  afterAll(async () => {
    await group?.closeAll();
    await database?.drop();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });

  /** A fresh account with its own organisation, and tokens written straight into the database. */
  async function newAccount() {
    const db = await database.db();
    const accountId = `acc-${randomUUID().slice(0, 12)}`;
    const organisation = `${accountId}-org`;
    await createTestAccount(db, { accountId, organisations: [organisation] });
    return {
      accountId,
      organisation,
      full: (await createTestToken(db, { accountId, wfstatus: ALL_STATUSES })).token,
      live: (await createTestToken(db, { accountId })).token,
      admin: (await createTestToken(db, { accountId, roles: ['ROLE_ADMIN'], wfstatus: ALL_STATUSES })).token,
    };
  }

  it('when two instances start at the same moment on an empty database, then both come up and each migration ran exactly once', async () => {
    for (const instance of [a, b]) {
      expect((await call(instance.baseUrl, 'GET', '/actuator/health')).body).toEqual({ status: 'UP' });
    }
    const appliedBy = (instance: Instance) =>
      instance
        .logLines()
        .filter((l) => l.msg === 'storage migrated')
        .flatMap((l) => l.migrations as string[]);
    const applied = [...appliedBy(a), ...appliedBy(b)];
    console.info(`migrations: A applied ${appliedBy(a).length}, B applied ${appliedBy(b).length}`);
    const files = (await listMigrations()).map((m) => m.name);
    // Between them they applied every file once; whichever got the lock first did each.
    expect(applied.sort()).toEqual([...files].sort());
    const recorded = (
      await (await database.db()).query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY version')
    ).rows.map((r) => r.name);
    expect(recorded).toEqual(files);
  });

  it('when a burst from one client IP is spread over both instances, then about 41 pass in total, not 41 per instance [DEC-RATE-001] [DEC-RATE-002]', async () => {
    const ip = randomClientIp();
    // No token: the limit runs before authentication, so each request costs the instances next
    // to nothing and the burst is over quickly (401 = let through, 429 = refused).
    const burst = 120;
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: burst }, async (_, i) => {
        const instance = i % 2 === 0 ? a : b;
        const answer = await call(instance.baseUrl, 'GET', '/events', { ip });
        return {
          instance: instance.name,
          status: answer.status,
          retryAfter: answer.headers.get('retry-after'),
          limit: answer.headers.get('x-ratelimit-limit'),
          body: answer.body,
        };
      }),
    );
    const windowMs = performance.now() - started;
    const passed = answers.filter((x) => x.status !== 429);
    const refused = answers.filter((x) => x.status === 429);
    const refill = Math.ceil(windowMs / 50);
    console.info(
      `rate limit across instances: ${burst} requests in ${windowMs.toFixed(0)} ms, ${passed.length} passed (A ${passed.filter((x) => x.instance === 'A').length}, B ${passed.filter((x) => x.instance === 'B').length}), ${refused.length} refused; bound 41 + ${refill}`,
    );

    expect(passed.every((x) => x.status === 401)).toBe(true);
    // From rest at least the burst passes, and beyond it only what refilled while the burst ran
    // (one every 50 ms). Per-instance limits would let 41 through on EACH: 82.
    expect(passed.length).toBeGreaterThanOrEqual(41);
    expect(passed.length).toBeLessThanOrEqual(41 + refill);
    expect(passed.length).toBeLessThan(82);
    // Both instances refuse: each sees the requests the other let through.
    expect(new Set(refused.map((x) => x.instance))).toEqual(new Set(['A', 'B']));
    for (const x of refused) {
      expect(Number(x.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(x.body).toMatchObject({ status: 429, error: 'Too Many Requests' });
    }
    expect(answers.every((x) => x.limit === '20')).toBe(true);

    // The bucket is one: drained through A, B lets through only what refilled meanwhile.
    const drainedAt = performance.now();
    const more = await Promise.all(Array.from({ length: 30 }, () => call(b.baseUrl, 'GET', '/events', { ip })));
    const afterMs = performance.now() - started;
    const passedOnB = more.filter((x) => x.status !== 429).length;
    console.info(`then 30 to B alone within ${(performance.now() - drainedAt).toFixed(0)} ms: ${passedOnB} passed`);
    expect(passedOnB).toBeLessThanOrEqual(41 + Math.ceil(afterMs / 50) - passed.length);
    expect(passedOnB).toBeLessThan(30);
  });

  it('when items are written through both instances, then every change reaches the receiver in exactly one delivery, and only a failed attempt is sent again, with the same X-Service-Delivery [HOOK-002] [HOOK-012] [HOOK-021]', async () => {
    const account = await newAccount();
    const receiver: RecordingReceiver = await startRecordingReceiver();
    try {
      // The third request fails once; everything else is taken at once.
      receiver.plan((r) => ({ status: r.index === 2 ? 500 : 204 }));
      // The webhook token is made through A; B's worker must open its sealed secret (shared WEBHOOK_SECRET_KEY).
      const created = await call(a.baseUrl, 'POST', `/accounts/${account.accountId}/tokens`, {
        token: BOOTSTRAP,
        body: { name: 'scale-out receiver', roles: ['ROLE_EXTERNAL_USER'], callBackUrl: `${receiver.url}/hook` },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const secret = created.body.signingSecret as string;
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const writer = clientFor(account.full);
      const instances = [a, b];
      // 24 creates, 12 through each instance, all at once.
      const writes = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          writer.post(
            instances[i % 2]!.baseUrl,
            '/events',
            eventBody({ userorganisation: account.organisation, wfstatus: 'approved' }),
          ),
        ),
      );
      expect(writes.map((w) => w.status)).toEqual(writes.map(() => 201));
      const ids = writes.map((w) => w.body.id as string);
      const delivered = (action: 'UPDATED' | 'DELETED') =>
        new Set(
          receiver.requests
            .filter((r) => r.answered !== null && r.answered < 300)
            .flatMap((r) => r.items.filter((item) => item.actionType === action).map((item) => item.id.split('_')[0]!)),
        );
      await waitFor('every create delivered', () => ids.every((id) => delivered('UPDATED').has(id)), 30_000, 50);

      // Then 8 deletes, alternating instances.
      const removed = ids.slice(0, 8);
      const deletes = await Promise.all(
        removed.map((id, i) => writer.delete(instances[i % 2]!.baseUrl, `/events/${id}`)),
      );
      expect(deletes.map((d) => d.status)).toEqual(deletes.map(() => 204));
      await waitFor('every delete delivered', () => removed.every((id) => delivered('DELETED').has(id)), 30_000, 50);
      // Let any stray duplicate arrive before counting.
      await new Promise((resolve) => setTimeout(resolve, 1000));

      const requests = receiver.requests;
      // Every request is a valid signature over its bytes.
      for (const r of requests) {
        expect(
          verifySignature({
            secret,
            timestamp: r.timestamp,
            signature: r.signature,
            body: r.body,
            nowSeconds: Math.floor(r.receivedAt / 1000),
          }),
        ).toEqual({ ok: true });
      }
      // Per delivery id: one request, or several when the earlier ones failed, with the same bytes.
      const byDelivery = new Map<string, RecordedRequest[]>();
      for (const r of requests) byDelivery.set(r.deliveryId, [...(byDelivery.get(r.deliveryId) ?? []), r]);
      for (const [id, attempts] of byDelivery) {
        expect(attempts.at(-1)!.answered, id).toBeLessThan(300);
        for (const earlier of attempts.slice(0, -1))
          expect(earlier.answered, `${id}: repeated after a success`).toBeGreaterThanOrEqual(500);
        for (const attempt of attempts) expect(attempt.body.equals(attempts[0]!.body)).toBe(true);
      }
      const failed = requests.find((r) => r.index === 2)!;
      expect(failed.answered).toBe(500);
      expect(byDelivery.get(failed.deliveryId)!.length).toBe(2);
      // Per change: in exactly one delivery.
      const deliveriesOf = new Map<string, Set<string>>();
      for (const r of requests) {
        for (const item of r.items)
          deliveriesOf.set(item.id, (deliveriesOf.get(item.id) ?? new Set()).add(r.deliveryId));
      }
      const changes = [...ids.map((id) => `${id}_EventUpdated`), ...removed.map((id) => `${id}_EventDeleted`)];
      expect([...deliveriesOf.keys()].sort()).toEqual(changes.sort());
      for (const change of changes) expect(deliveriesOf.get(change)!.size, change).toBe(1);
      const makers = new Set(requests.flatMap((r) => r.items.map((item) => item.resourceUri.split('/events/')[0])));
      console.info(
        `webhooks across instances: ${changes.length} changes in ${byDelivery.size} deliveries, ${requests.length} requests; deliveries made by ${[...makers].map((u) => (u === a.baseUrl ? 'A' : 'B')).join(' and ')}`,
      );
    } finally {
      await receiver.close();
    }
  }, 80_000);

  it('when a sync pages through alternating instances while both take writes, then it ends with exactly the approved items, in one order, without gaps [PAGE-001] [PAGE-002] [DEC-ITEM-009]', async () => {
    const account = await newAccount();
    const writer = clientFor(account.full);
    const reader = clientFor(account.live);
    const instances = [a, b];
    /** What a writer last got back for each item: the truth the sync must end with. */
    const latest = new Map<string, { wfstatus: string; lastupdated: string }>();
    let writing = true;

    // One writer per instance: creates (every other one approved), and updates of earlier approved items.
    const writers = instances.map(async (instance, w) => {
      const mine: Array<{ id: string; body: Record<string, unknown> }> = [];
      for (let i = 0; i < 18; i++) {
        if (i % 3 === 2 && mine.length > 0) {
          const target = mine[(i * 7) % mine.length]!;
          const body = { ...target.body, trcItemDetails: [{ lang: 'nl', title: `Bijgewerkt ${w}-${i}` }] };
          const put = await writer.put(instance.baseUrl, `/events/${target.id}`, body);
          expect(put.status, JSON.stringify(put.body)).toBe(200);
          latest.set(target.id, { wfstatus: put.body.wfstatus, lastupdated: put.body.lastupdated });
        } else {
          const body = eventBody({
            userorganisation: account.organisation,
            wfstatus: i % 2 === 0 ? 'approved' : 'readyforvalidation',
          });
          const post = await writer.post(instance.baseUrl, '/events', body);
          expect(post.status, JSON.stringify(post.body)).toBe(201);
          latest.set(post.body.id, { wfstatus: post.body.wfstatus, lastupdated: post.body.lastupdated });
          if (post.body.wfstatus === 'approved') mine.push({ id: post.body.id, body });
        }
      }
    });
    const written = Promise.all(writers).finally(() => {
      writing = false;
    });

    // The interface's procedure: lastupdated >= mark, ascending, until a page is short; here
    // each page from the other instance, and rounds repeated until the writers are done.
    const size = 4;
    const mirror = new Map<string, string>();
    let mark: string | undefined;
    let pages = 0;
    for (let round = 0; ; round++) {
      const lastRound = !writing;
      for (;;) {
        const instance = instances[pages % 2]!;
        const query = `/events?size=${size}&sortField=lastupdated&sortOrder=ASC${mark === undefined ? '' : `&lastupdated=${encodeURIComponent(mark)}`}`;
        const page = await reader.get(instance.baseUrl, query);
        pages++;
        expect(page.status, JSON.stringify(page.body)).toBe(200);
        const items = page.body as Array<{ id: string; lastupdated: string; wfstatus: string }>;
        const stamps = items.map((item) => Date.parse(item.lastupdated));
        expect(stamps, 'one order on every instance').toEqual([...stamps].sort((x, y) => x - y));
        if (mark !== undefined && items.length > 0) expect(stamps[0]!).toBeGreaterThanOrEqual(Date.parse(mark));
        for (const item of items) {
          expect(item.wfstatus).toBe('approved');
          mirror.set(item.id, item.lastupdated);
        }
        if (items.length > 0) mark = items.at(-1)!.lastupdated;
        if (items.length < size) break;
      }
      if (lastRound) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await written;

    const approved = [...latest].filter(([, v]) => v.wfstatus === 'approved');
    expect([...mirror.keys()].sort()).toEqual(approved.map(([id]) => id).sort());
    // Not just every item: every item's last change (an update missed would leave an old stamp).
    for (const [id, v] of approved) expect(mirror.get(id), id).toBe(v.lastupdated);
    console.info(
      `sync across instances: ${approved.length} approved of ${latest.size} items, ${pages} pages of ${size}`,
    );
  }, 80_000);

  it('when an ontology override is written through one instance, then an item read through the other shows the new label at once [ONTO-006] [ONTO-015]', async () => {
    const account = await newAccount();
    const writer = clientFor(account.full);
    const admin = clientFor(account.admin);
    const item = await writer.post(
      a.baseUrl,
      '/events',
      eventBody({
        userorganisation: account.organisation,
        wfstatus: 'approved',
        translations: { primaryLanguage: 'nl', availableLanguages: ['nl'] },
        trcItemCategories: { categories: [{ catid: 'p-1001', value: 'true' }] },
      }),
    );
    expect(item.status, JSON.stringify(item.body)).toBe(201);
    const labelOn = async (instance: Instance) =>
      (await writer.get(instance.baseUrl, `/events/${item.body.id}`)).body.trcItemCategories.categories[0]
        .categoryTranslations[0].label as string;
    // Both instances have the base ontology of the account cached now.
    const base = await labelOn(b);
    expect(await labelOn(a)).toBe(base);

    const listedLabelOn = async (instance: Instance) =>
      (await writer.get(instance.baseUrl, `/events?trcid=${encodeURIComponent(item.body.trcid)}`)).body[0]
        .trcItemCategories.categories[0].categoryTranslations[0].label as string;
    for (const [writeOn, readOn] of [
      [a, b],
      [b, a],
    ] as const) {
      const label = `Toegankelijk ${randomUUID().slice(0, 6)}`;
      // The reader has just sent this list page: it keeps it (items/listPageCache.ts) until the content changes.
      const before = await listedLabelOn(readOn);
      const put = await admin.put(writeOn.baseUrl, `/dictionary/propertiesOntology?accountId=${account.accountId}`, {
        propertyCategories: [
          {
            id: 'pc-9001',
            name: 'Eigen',
            datatype: 'yes',
            propertytranslations: [{ lang: 'nl', text: 'Eigen' }],
            properties: [
              { id: 'p-1001', name: label, datatype: 'yesno', propertytranslations: [{ lang: 'nl', text: label }] },
            ],
          },
        ],
      });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      // At once: the very next request, no waiting, no cache expiry.
      expect(await labelOn(readOn), `written through ${writeOn.name}, read through ${readOn.name}`).toBe(label);
      expect(await listedLabelOn(readOn), `listed through ${readOn.name}`).toBe(label);
      expect(before).not.toBe(label);
    }
    expect(base).not.toMatch(/^Toegankelijk /);
  });

  it('when items are created, changed and deleted through one instance, then a list page the other has just sent shows each change on its next request [LIST-001] [SYNC-002]', async () => {
    const account = await newAccount();
    const api = clientFor(account.full);
    const titlesOn = async (instance: Instance) =>
      (
        (await api.get(instance.baseUrl, '/events?wfstatus=approved')).body as Array<{
          trcItemDetails: Array<{ title: string }>;
        }>
      ).map((item) => item.trcItemDetails[0]!.title);
    const body = (title: string) =>
      eventBody({
        userorganisation: account.organisation,
        wfstatus: 'approved',
        trcItemDetails: [{ lang: 'nl', title }],
      });

    expect(await titlesOn(b)).toEqual([]);
    const created = await api.post(a.baseUrl, '/events', body('Eerste'));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // No waiting anywhere: the next request after each write.
    expect(await titlesOn(b)).toEqual(['Eerste']);
    expect(await titlesOn(a)).toEqual(['Eerste']);
    expect((await api.put(b.baseUrl, `/events/${created.body.id}`, body('Eerste, hernoemd'))).status).toBe(200);
    expect(await titlesOn(a)).toEqual(['Eerste, hernoemd']);
    expect(await titlesOn(b)).toEqual(['Eerste, hernoemd']);
    expect((await api.delete(a.baseUrl, `/events/${created.body.id}`)).status).toBe(204);
    expect(await titlesOn(b)).toEqual([]);
  });

  it('when a token is narrowed or deleted through one instance, then the other, which has just served it, follows within moments, and the instance that made the change at once [TOKEN-009] [AUTH-002]', async () => {
    const account = await newAccount();
    const admin = clientFor(account.admin);
    const created = await admin.post(a.baseUrl, `/accounts/${account.accountId}/tokens`, {
      name: 'followed across instances',
      roles: ['ROLE_EXTERNAL_USER'],
      apiTokenFilter: { wfstatus: ['approved', 'archived'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const user = clientFor(created.body.token as string);
    const archived = await clientFor(account.full).post(
      a.baseUrl,
      '/events',
      eventBody({ userorganisation: account.organisation, wfstatus: 'archived' }),
    );
    expect(archived.status).toBe(201);
    const seesArchived = async (instance: Instance) => {
      const answer = await user.get(instance.baseUrl, '/events?wfstatus=archived');
      return answer.status === 200 && answer.body.some((item: { id: string }) => item.id === archived.body.id);
    };
    // Both instances resolve the token (and may keep its principal) before it changes.
    for (const instance of [a, b, a, b]) expect(await seesArchived(instance)).toBe(true);

    const narrowed = await admin.put(a.baseUrl, `/accounts/${account.accountId}/tokens/${created.body.id}`, {
      apiTokenFilter: { wfstatus: ['approved'] },
    });
    expect(narrowed.status, JSON.stringify(narrowed.body)).toBe(200);
    expect(await seesArchived(a)).toBe(false);
    const narrowedOnB = performance.now();
    await waitFor('instance B applying the narrowed filter', async () => !(await seesArchived(b)), 2000);
    const narrowMs = performance.now() - narrowedOnB;

    const deleted = await admin.delete(a.baseUrl, `/accounts/${account.accountId}/tokens/${created.body.id}`);
    expect(deleted.status).toBe(204);
    expect((await user.get(a.baseUrl, '/events')).status).toBe(401);
    const deletedOnB = performance.now();
    await waitFor(
      'instance B refusing the deleted token',
      async () => (await user.get(b.baseUrl, '/events')).status === 401,
      2000,
    );
    console.log(
      `token changes reached the other instance after ${narrowMs.toFixed(1)} ms (narrowed) and ${(performance.now() - deletedOnB).toFixed(1)} ms (deleted)`,
    );
  });

  it('when an asset is uploaded through one instance and DATA_DIR is shared, then the other serves its file and lists it [ASSET-003]', async () => {
    const account = await newAccount();
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 30, b: 30 } } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'scale-out.png');
    const uploaded = await fetch(`${a.baseUrl}/assets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.full}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const asset = (await uploaded.json()) as { id: string; url: string };
    const onB = asset.url.replace(a.baseUrl, b.baseUrl);
    const file = await fetch(onB, { headers: { authorization: `Bearer ${account.full}` } });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);
    const listed = await clientFor(account.full).get(b.baseUrl, '/assets');
    expect(listed.body.results.map((x: { id: string }) => x.id)).toContain(asset.id);
  });
});
