import { randomUUID } from 'node:crypto';
import { makeImage, uploadAsset } from '../assets/assetFixtures.ts';
import type { Collection } from '../../../src/domain/entityRules.ts';
import { client } from '../items/itemsHarness.ts';
import { createTestUser } from '../sessions/testUsers.ts';
import type { Db } from '../../../src/storage/db.ts';
import { ALL_STATUSES, createTestAccount, createTestToken } from '../fixtures.ts';
import type { TestApp } from '../testApp.ts';

// The data the security tests attack: two accounts with their own organisations, one token of
// every kind, items of every collection in every visibility class, an asset per account, a token
// to administer, a feed run, and users to sign in. Account A is `amsterdam`, the owner of the
// shipped demo feed (feeds/feeds.yaml), so its feed endpoints have something to act on.

export const COLLECTION_NAMES: readonly Collection[] = ['events', 'locations', 'venues', 'eventgroups', 'routes'];

export const FEED_ID = 'uitagenda-amsterdam';

export interface ItemRef {
  id: string;
  trcid: string;
}

/** One item of each kind per collection. */
export interface CollectionItems {
  /** Approved, organisation A1: visible to every token of A. */
  approved: ItemRef;
  /** readyforvalidation in A1: hidden from live-only tokens. */
  hidden: ItemRef;
  /** archived in A1. */
  archived: ItemRef;
  /** Soft-deleted in A1: 404 for everyone on detail reads (DEC-ITEM-004). */
  deleted: ItemRef;
  /** Approved in A2: hidden from tokens restricted to A1. */
  inA2: ItemRef;
  /** Approved in B1: another account's. */
  inB: ItemRef;
}

export interface SecurityWorld {
  accountA: string;
  accountB: string;
  /** The super admin's own account (holds no items). */
  accountS: string;
  orgA1: string;
  orgA2: string;
  orgB1: string;
  tokens: {
    superAdmin: string;
    /** ROLE_ADMIN of A, every status. */
    admin: string;
    /** ROLE_EXTERNAL_USER of A, every status. */
    external: string;
    /** ROLE_EXTERNAL_USER of A, the default scope: approved only. */
    live: string;
    /** ROLE_EXTERNAL_USER of A restricted to organisation A2, every status. */
    orgA2Only: string;
    /** ROLE_ADMIN of B, every status. */
    otherAdmin: string;
    /** ROLE_EXTERNAL_USER of B, every status. */
    otherExternal: string;
  };
  users: {
    /** ROLE_EXTERNAL_USER of A. */
    editor: { username: string; password: string };
    /** ROLE_ADMIN of A. */
    admin: { username: string; password: string };
  };
  items: Record<Collection, CollectionItems>;
  assetA: { id: string; filename: string };
  assetB: { id: string; filename: string };
  /** A ROLE_EXTERNAL_USER token of A with a webhook, to administer (never used as a bearer). */
  tokenOfA: { id: string };
  feedRunId: string;
}

/** A minimal valid body for `collection` with a unique title. */
export function itemBody(collection: Collection, fields: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = {
    trcItemDetails: [{ lang: 'nl', title: `Security ${collection} ${randomUUID().slice(0, 8)}` }],
  };
  if (collection === 'events')
    body.calendar = { singleDates: [{ date: '2027-08-14', when: [{ timestart: '20:15', timeend: '21:30' }] }] };
  if (collection === 'routes') {
    body.routeInfo = {
      routeType: 'walking',
      distanceInKilometers: 2.5,
      routeCoordinates: [
        { lat: 52.3731, lng: 4.8897 },
        { lat: 52.37, lng: 4.895 },
      ],
      pois: [{ coordinate: { lat: 52.3731, lng: 4.8924 }, trcItemDetails: [{ lang: 'nl', title: 'Dam' }] }],
    };
  }
  return { ...body, ...fields };
}

/** Writes an item through the API and returns its ids; fails the setup on anything but 201. */
export async function createItem(
  baseUrl: string,
  token: string,
  collection: Collection,
  fields: Record<string, unknown>,
): Promise<ItemRef> {
  const answer = await client(baseUrl, token).post(`/${collection}`, itemBody(collection, fields));
  if (answer.status !== 201)
    throw new Error(`setup: POST /${collection} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return { id: answer.body.id as string, trcid: answer.body.trcid as string };
}

export async function uploadPng(baseUrl: string, token: string): Promise<{ id: string; filename: string }> {
  const filename = `pixel-${randomUUID().slice(0, 8)}.png`;
  const response = await uploadAsset(baseUrl, token, {
    bytes: await makeImage('png', 8, 6),
    filename,
    contentType: 'image/png',
  });
  if (response.status !== 201)
    throw new Error(`setup: POST /assets answered ${response.status}: ${await response.text()}`);
  const asset = (await response.json()) as { id: string; filename: string };
  return { id: asset.id, filename: asset.filename };
}

export async function buildWorld(db: Db, app: TestApp): Promise<SecurityWorld> {
  const suffix = randomUUID().slice(0, 8);
  const accountA = 'amsterdam';
  const accountB = `rotterdam-${suffix}`;
  const accountS = `platform-${suffix}`;
  const orgA1 = 'amsterdam-marketing'; // the demo feed's userorganisation
  const orgA2 = `amsterdam-museums-${suffix}`;
  const orgB1 = `rotterdam-partners-${suffix}`;
  await createTestAccount(db, { accountId: accountA, organisations: [orgA1, orgA2] });
  await createTestAccount(db, { accountId: accountB, organisations: [orgB1] });
  await createTestAccount(db, { accountId: accountS, organisations: [`platform-${suffix}`] });

  const token = async (
    accountId: string,
    roles: Parameters<typeof createTestToken>[1]['roles'],
    scope: { organisations?: string[]; wfstatus?: readonly string[] } = {},
  ) => (await createTestToken(db, { accountId, roles, ...scope })).token;
  const tokens = {
    superAdmin: await token(accountS, ['ROLE_SUPER_ADMIN']),
    admin: await token(accountA, ['ROLE_ADMIN'], { wfstatus: ALL_STATUSES }),
    external: await token(accountA, ['ROLE_EXTERNAL_USER'], { wfstatus: ALL_STATUSES }),
    live: await token(accountA, ['ROLE_EXTERNAL_USER']),
    orgA2Only: await token(accountA, ['ROLE_EXTERNAL_USER'], { organisations: [orgA2], wfstatus: ALL_STATUSES }),
    otherAdmin: await token(accountB, ['ROLE_ADMIN'], { wfstatus: ALL_STATUSES }),
    otherExternal: await token(accountB, ['ROLE_EXTERNAL_USER'], { wfstatus: ALL_STATUSES }),
  };
  const users = {
    editor: await createTestUser(db, { accountId: accountA, roles: ['ROLE_EXTERNAL_USER'] }),
    admin: await createTestUser(db, { accountId: accountA, roles: ['ROLE_ADMIN'] }),
  };

  const items = {} as Record<Collection, CollectionItems>;
  for (const collection of COLLECTION_NAMES) {
    const inA = (wfstatus: string, userorganisation = orgA1) =>
      createItem(app.baseUrl, tokens.admin, collection, { wfstatus, userorganisation });
    const deleted = await inA('approved');
    const remove = await client(app.baseUrl, tokens.admin).delete(`/${collection}/${deleted.id}`);
    if (remove.status !== 204) throw new Error(`setup: DELETE answered ${remove.status}`);
    items[collection] = {
      approved: await inA('approved'),
      hidden: await inA('readyforvalidation'),
      archived: await inA('archived'),
      deleted,
      inA2: await inA('approved', orgA2),
      inB: await createItem(app.baseUrl, tokens.otherAdmin, collection, {
        wfstatus: 'approved',
        userorganisation: orgB1,
      }),
    };
  }

  const tokenOfA = await createTestToken(db, {
    accountId: accountA,
    roles: ['ROLE_EXTERNAL_USER'],
    callbackUrl: 'https://93.184.215.14/hooks/a',
    signingSecret: 's'.repeat(43),
  });
  const run = await client(app.baseUrl, tokens.admin).call('POST', `/feeds/${FEED_ID}/fetchAndConvertOnce?size=1`);
  if (run.status !== 200)
    throw new Error(`setup: fetchAndConvertOnce answered ${run.status}: ${JSON.stringify(run.body)}`);

  return {
    accountA,
    accountB,
    accountS,
    orgA1,
    orgA2,
    orgB1,
    tokens,
    users,
    items,
    assetA: await uploadPng(app.baseUrl, tokens.admin),
    assetB: await uploadPng(app.baseUrl, tokens.otherAdmin),
    tokenOfA: { id: tokenOfA.id },
    feedRunId: run.body.runId as string,
  };
}
