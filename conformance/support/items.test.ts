import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../http/httpClient.ts';
import type { HttpResponse } from '../http/httpClient.ts';
import { createRedactor } from '../http/redact.ts';
import { isCheckFailure } from '../model/failure.ts';
import { sendJson, startServer } from '../test/startServer.ts';
import type { TestServer } from '../test/startServer.ts';
import { createItem, itemProblemRequirements } from './items.ts';
import { distinctItems, pageByKeyset, pageByNumber } from './lists.ts';
import { findOwnOrganisation } from './organisations.ts';
import { runFixture } from './fixtures.ts';
import { unplacedStatuses } from './sharedItems.ts';
import { WF_STATUSES } from './itemTypes.ts';
import type { Catalogue, CatalogueEntry } from './sharedItems.ts';
import type { Item, WfStatus } from './itemTypes.ts';

/** A tiny item list: POST, detail GET, list GET with lastupdated (>=), wfstatus, trcid, sort by lastupdated, size, page. */
async function fakeService(
  options: { stamps?: 'unique' | 'tied'; exclusive?: boolean; idInBody?: boolean; refuses?: string } = {},
) {
  const items: Item[] = [];
  let clock = Date.parse('2026-11-20T08:30:00.000Z');
  const server = await startServer((req, res, body) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/api/dictionary/userorganisations')
      return sendJson(res, 200, [
        { userorganisation: 'other-org', accountId: 'other' },
        { userorganisation: 'own-org', accountId: 'acc' },
      ]);
    const detail = /^\/api\/events\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'POST' && url.pathname === '/api/events') {
      const draft = JSON.parse(body.toString()) as Item;
      if (options.refuses && options.refuses in draft)
        return sendJson(res, 400, { status: 400, error: 'Bad Request', message: `unknown field ${options.refuses}` });
      if (options.stamps !== 'tied') clock += 1;
      const item: Item = {
        ...draft,
        id: randomUUID(),
        entitytype: 'EVENEMENT',
        wfstatus: draft.wfstatus ?? 'readyforvalidation',
        lastupdated: new Date(clock).toISOString(),
      };
      items.push(item);
      res.setHeader('location', `http://x/api/events/${item.id}`);
      return sendJson(res, 201, options.idInBody === false ? {} : item);
    }
    if (req.method === 'GET' && detail) {
      const found = items.find((i) => i.id === detail[1]);
      return found ? sendJson(res, 200, found) : sendJson(res, 404, { status: 404, error: 'Not Found', message: 'no' });
    }
    if (req.method === 'GET' && url.pathname === '/api/events') {
      const q = url.searchParams;
      const bound = q.get('lastupdated');
      const statuses = q.get('wfstatus')?.split(',');
      let out = items.filter(
        (i) =>
          (!bound ||
            (options.exclusive
              ? Date.parse(String(i.lastupdated)) > Date.parse(bound)
              : Date.parse(String(i.lastupdated)) >= Date.parse(bound))) &&
          (!statuses || statuses.includes(String(i.wfstatus))) &&
          (!q.get('trcid') || i.trcid === q.get('trcid')),
      );
      out = [...out].sort(
        (a, b) =>
          Date.parse(String(a.lastupdated)) - Date.parse(String(b.lastupdated)) ||
          String(a.id).localeCompare(String(b.id)),
      );
      if (q.get('sortOrder') !== 'ASC') out.reverse();
      const size = Number(q.get('size') ?? 20);
      const page = Number(q.get('page') ?? 0);
      return sendJson(res, 200, out.slice(page * size, page * size + size));
    }
    sendJson(res, 404, { status: 404, error: 'Not Found', message: 'no route' });
  });
  return { server, items };
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function context(baseUrl: string, runId = `ctf-${Math.random().toString(36).slice(2, 8)}`) {
  const cleanups: string[] = [];
  let n = 0;
  const http = createHttpClient({
    baseUrl,
    tokens: { consumer: 'c-token', full: 'f-token' },
    redactor: createRedactor(),
    record: () => {},
  });
  const ctx = {
    http,
    tokens: { consumer: 'c-token', full: 'f-token' },
    config: { baseUrl, accountId: 'acc' } as never,
    runId,
    tag: (label = 'item') => `${runId}-${label.toLowerCase()}-${++n}`,
    cleanup: { add: () => {}, softDelete: (path: string) => void cleanups.push(path) },
    note: () => {},
  };
  return { ctx, cleanups };
}

describe('createItem', () => {
  it("when an item is created, then trcid, slug and title carry the run tag, the organisation is the account's, and its soft delete is registered", async () => {
    const fake = await fakeService();
    server = fake.server;
    const { ctx, cleanups } = context(`${server.url}/api`);
    const created = await createItem(ctx, '/events', { wfstatus: 'approved' });
    expect(created.trcid).toMatch(new RegExp(`^${ctx.runId}-evenement-\\d+$`));
    expect(created.body).toMatchObject({
      slug: created.trcid,
      userorganisation: 'own-org',
      trcItemDetails: [{ lang: 'nl', title: expect.stringContaining(ctx.runId) }],
    });
    expect(cleanups).toEqual([created.path]);
    expect(created.item.id).toBe(created.id);
  });

  it('when the target refuses the draft and onRefused offers another, then that one is created; without it, the refusal fails', async () => {
    const fake = await fakeService({ refuses: 'markers' });
    server = fake.server;
    const { ctx } = context(`${server.url}/api`);
    const refusals: number[] = [];
    const created = await createItem(
      ctx,
      '/events',
      { markers: 'x', keywords: 'y' },
      {
        onRefused: (refusal) => {
          refusals.push(refusal.status);
          return { keywords: 'y' };
        },
      },
    );
    expect(refusals).toEqual([400]);
    expect(created.body).toMatchObject({ keywords: 'y', trcid: created.trcid });
    expect(created.body).not.toHaveProperty('markers');
    expect(fake.items).toHaveLength(1);
    const refused = await createItem(ctx, '/events', { markers: 'x' }).catch((error: unknown) => error);
    expect(isCheckFailure(refused)).toBe(true);
  });

  it('when the create answer has no body, then the id is taken from Location', async () => {
    const fake = await fakeService({ idInBody: false });
    server = fake.server;
    const { ctx } = context(`${server.url}/api`);
    const created = await createItem(ctx, '/events', {});
    expect(created.id).toBe(fake.items[0]!.id);
  });
});

describe('paging helpers', () => {
  async function seeded(count: number, options: Parameters<typeof fakeService>[0] = {}) {
    const fake = await fakeService(options);
    server = fake.server;
    const { ctx } = context(`${server.url}/api`);
    for (let i = 0; i < count; i++) await createItem(ctx, '/events', { wfstatus: 'approved' });
    return { ctx, fake };
  }

  it('when paging by keyset with size 3 over 7 items, then each page after the first repeats the boundary item and the last is short', async () => {
    const { ctx, fake } = await seeded(7);
    const pages = await pageByKeyset(ctx, '/events', {}, { size: 3 });
    expect(pages.map((p) => p.items.length)).toEqual([3, 3, 3, 1]);
    expect(pages[1]!.items[0]!.id).toBe(pages[0]!.items[2]!.id);
    expect(distinctItems(pages).map((i) => i.id)).toEqual(fake.items.map((i) => i.id));
  });

  it('when size or more items share one lastupdated, then keyset paging stops with a failure instead of looping', async () => {
    const { ctx } = await seeded(4, { stamps: 'tied' });
    const error = await pageByKeyset(ctx, '/events', {}, { size: 2, from: '2026-11-20T08:30:00.000Z' }).catch(
      (e: unknown) => e,
    );
    expect(isCheckFailure(error) && error.message).toMatch(/does not advance/);
  });

  it('when paging by page number, then pages run until a short one, and a target that never ends one is stopped', async () => {
    const { ctx } = await seeded(5);
    const pages = await pageByNumber(ctx, '/events', { sortOrder: 'ASC' }, { size: 2 });
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1]);
    const error = await pageByNumber(ctx, '/events', {}, { size: 1, maxPages: 3 }).catch((e: unknown) => e);
    expect(isCheckFailure(error) && error.message).toMatch(/still full pages after 3 pages/);
  });
});

describe('runFixture and findOwnOrganisation', () => {
  it('when two checks of one run ask for the same fixture, then it is made once; another run makes its own', async () => {
    let made = 0;
    const make = async () => ++made;
    const a = { runId: 'ctf-aaaaaa', config: { baseUrl: 'http://x' } as never };
    expect(await runFixture(a, 'k', make)).toBe(1);
    expect(await runFixture(a, 'k', make)).toBe(1);
    expect(await runFixture({ ...a, runId: 'ctf-bbbbbb' }, 'k', make)).toBe(2);
  });

  it("when --account-id is set, then the suite's organisation is that account's first one", async () => {
    const fake = await fakeService();
    server = fake.server;
    const { ctx } = context(`${server.url}/api`);
    expect(await findOwnOrganisation(ctx)).toBe('own-org');
  });
});

describe('itemProblemRequirements', () => {
  const ctx = {
    check: { id: 'c', requirements: ['WRITE-001', 'ITEM-003', 'WF-002', 'WF-003'], level: 'MUST' as const },
  };
  const answer = (...problems: { pointer: string; received?: unknown }[]) =>
    ({ problems: problems.map((p) => ({ kind: 'body', message: '', ...p })) }) as unknown as HttpResponse;

  it('when every spec problem lies in a server-set field the check covers, then those rules are blamed, else the write', () => {
    expect(itemProblemRequirements(ctx, answer({ pointer: '/trcid' }), ['WRITE-001'])).toEqual(['ITEM-003']);
    expect(
      itemProblemRequirements(ctx, answer({ pointer: '/wfstatus', received: 'published' }), ['WRITE-001']),
    ).toEqual(['WF-003']);
    expect(itemProblemRequirements(ctx, answer({ pointer: '/wfstatus', received: 'pending' }))).toEqual(['WF-002']);
    expect(
      itemProblemRequirements(ctx, answer({ pointer: '/trcid' }, { pointer: '/calendar/x' }), ['WRITE-001']),
    ).toEqual(['WRITE-001']);
    expect(itemProblemRequirements(ctx, answer({ pointer: '/id' }), ['WRITE-001'])).toEqual(['WRITE-001']);
  });
});

describe('unplacedStatuses', () => {
  it('when the catalogue holds no item in a status, then that status is unplaced; a draft stored as readyforvalidation counts as placed', () => {
    const entry = (written: WfStatus | undefined, status: WfStatus) => ({ written, status }) as CatalogueEntry;
    const cat = {
      entries: [entry('approved', 'approved'), entry('draft', 'readyforvalidation'), entry('archived', 'archived')],
    } as Catalogue;
    expect(unplacedStatuses(cat, WF_STATUSES)).toEqual(['rejected', 'deleted']);
    expect(unplacedStatuses(cat, ['archived'])).toEqual([]);
  });
});
