import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeImage } from '../support/assets/assetFixtures.ts';
import type { Collection } from '../../src/domain/entityRules.ts';
import { describeEachEngine } from '../support/storage/testDb.ts';
import { createTestToken } from '../support/fixtures.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';
import { CALLER_MEANING, CALLERS, callerBearers, signIn, type Caller } from '../support/security/callers.ts';
import { multipartBody } from '../support/security/hostileBodies.ts';
import { rawClient, type RawClient, type RawRequest } from '../support/security/rawHttp.ts';
import { errorBodyProblems, specOperation, specOperations } from '../support/security/specOperations.ts';
import {
  buildWorld,
  COLLECTION_NAMES,
  createItem,
  FEED_ID,
  itemBody,
  type ItemRef,
  type SecurityWorld,
} from '../support/security/world.ts';

// The authorisation matrix (OWASP API1 BOLA, API2, API5 BFLA; DEC-ERR-002, DEC-AUTH-004/005/013/015,
// DEC-ITEM-004/007, DEC-DICT-005, DEC-ASSET-004, DEC-FEED-004): every operation of the spec × every
// kind of caller gives exactly the status below. The targets are account A's objects in its
// organisation A1. Mutating rows act on a fresh object per cell, so cells never depend on each other.
//
// Columns (see CALLER_MEANING in support/callers.ts):
//   none   no Authorization header              otherAdmin  ROLE_ADMIN of account B
//   inv    a token that does not exist          admin       ROLE_ADMIN of A
//   exp    an expired session of A's editor     super       ROLE_SUPER_ADMIN of a third account
//   ext    ROLE_EXTERNAL_USER of A              oOrg        token of A restricted to organisation A2
//   live   token of A, approved items only      sess        session of A's editor (ROLE_EXTERNAL_USER)

interface Fixtures {
  world: SecurityWorld;
  png: Buffer;
  /** Account A's property ontology as GET returns it: the body of a round-trip PUT. */
  ontologyOfA: unknown;
  /** A new approved item of A1 in `collection`. */
  item(collection: Collection): Promise<ItemRef>;
  /** A new ROLE_EXTERNAL_USER token of A (with a webhook when asked), never used as a bearer. */
  tokenOfA(withCallback?: boolean): Promise<string>;
  /** A fresh refresh token of A's editor. */
  refreshToken(): Promise<string>;
  /** A fresh session access token of A's editor. */
  session(): Promise<string>;
}

type Build = (f: Fixtures) => RawRequest | Promise<RawRequest>;
interface Row {
  operationId: string;
  target: string;
  expect: readonly number[];
  build: Build;
  /** The session column signs in anew: the request ends its session. */
  freshSession?: boolean;
}

const get = (path: string): RawRequest => ({ method: 'GET', path });
const del = (path: string): RawRequest => ({ method: 'DELETE', path });
const json = (method: string, path: string, body: unknown): RawRequest => ({
  method,
  path,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const OPERATION_IDS: Record<
  Collection,
  { list: string; create: string; get: string; update: string; remove: string; noun: string }
> = {
  events: {
    list: 'listEvents',
    create: 'createEvent',
    get: 'getEvent',
    update: 'updateEvent',
    remove: 'deleteEvent',
    noun: 'event',
  },
  locations: {
    list: 'listLocations',
    create: 'createLocation',
    get: 'getLocation',
    update: 'updateLocation',
    remove: 'deleteLocation',
    noun: 'location',
  },
  venues: {
    list: 'listVenues',
    create: 'createVenue',
    get: 'getVenue',
    update: 'updateVenue',
    remove: 'deleteVenue',
    noun: 'venue',
  },
  eventgroups: {
    list: 'listEventGroups',
    create: 'createEventGroup',
    get: 'getEventGroup',
    update: 'updateEventGroup',
    remove: 'deleteEventGroup',
    noun: 'event group',
  },
  routes: {
    list: 'listRoutes',
    create: 'createRoute',
    get: 'getRoute',
    update: 'updateRoute',
    remove: 'deleteRoute',
    noun: 'route',
  },
};

/** The item rows, the same for each of the five collections. */
function itemRows(c: Collection): Row[] {
  const op = OPERATION_IDS[c];
  const items = (f: Fixtures) => f.world.items[c];
  const rows: Row[] = [
    //                                                      none inv  exp  ext  oAdm adm  super oOrg live sess
    {
      operationId: op.list,
      target: `the ${c} list`,
      expect: [401, 401, 401, 200, 200, 200, 200, 200, 200, 200],
      build: () => get(`/${c}`),
    },
    {
      operationId: op.create,
      target: `a new ${op.noun} in A1`,
      expect: [401, 401, 401, 201, 403, 201, 201, 403, 201, 201],
      build: (f) => json('POST', `/${c}`, itemBody(c, { userorganisation: f.world.orgA1 })),
    },
    {
      operationId: op.get,
      target: `an approved ${op.noun} of A1`,
      expect: [401, 401, 401, 200, 404, 200, 200, 404, 200, 200],
      build: (f) => get(`/${c}/${items(f).approved.id}`),
    },
    {
      operationId: op.get,
      target: `a ${op.noun} of A1 waiting for validation`,
      expect: [401, 401, 401, 200, 404, 200, 200, 404, 404, 200],
      build: (f) => get(`/${c}/${items(f).hidden.id}`),
    },
    {
      operationId: op.get,
      target: `a soft-deleted ${op.noun} of A1`,
      expect: [401, 401, 401, 404, 404, 404, 404, 404, 404, 404],
      build: (f) => get(`/${c}/${items(f).deleted.id}`),
    },
    {
      operationId: op.get,
      target: `an approved ${op.noun} of A2`,
      expect: [401, 401, 401, 200, 404, 200, 200, 200, 200, 200],
      build: (f) => get(`/${c}/${items(f).inA2.id}`),
    },
    {
      operationId: op.get,
      target: `an approved ${op.noun} of account B`,
      expect: [401, 401, 401, 404, 200, 404, 200, 404, 404, 404],
      build: (f) => get(`/${c}/${items(f).inB.id}`),
    },
    {
      operationId: op.update,
      target: `an approved ${op.noun} of A1`,
      expect: [401, 401, 401, 200, 404, 200, 200, 404, 200, 200],
      build: async (f) =>
        json(
          'PUT',
          `/${c}/${(await f.item(c)).id}`,
          itemBody(c, { userorganisation: f.world.orgA1, wfstatus: 'approved' }),
        ),
    },
    {
      operationId: op.update,
      target: `a ${op.noun} of A1 waiting for validation`,
      expect: [401, 401, 401, 200, 404, 200, 200, 404, 404, 200],
      build: (f) =>
        json(
          'PUT',
          `/${c}/${items(f).hidden.id}`,
          itemBody(c, {
            userorganisation: f.world.orgA1,
            wfstatus: 'readyforvalidation',
            trcid: items(f).hidden.trcid,
          }),
        ),
    },
    {
      operationId: op.remove,
      target: `an approved ${op.noun} of A1`,
      expect: [401, 401, 401, 204, 404, 204, 204, 404, 204, 204],
      build: async (f) => del(`/${c}/${(await f.item(c)).id}`),
    },
  ];
  if (c === 'routes') {
    rows.push(
      {
        operationId: 'getRouteGeoJson',
        target: 'the GeoJSON of an approved route of A1',
        expect: [401, 401, 401, 200, 404, 200, 200, 404, 200, 200],
        build: (f) => get(`/routes/${items(f).approved.id}/geojson`),
      },
      {
        operationId: 'getRouteGeoJson',
        target: 'the GeoJSON of a route of A1 waiting for validation',
        expect: [401, 401, 401, 200, 404, 200, 200, 404, 404, 200],
        build: (f) => get(`/routes/${items(f).hidden.id}/geojson`),
      },
      {
        operationId: 'getRouteGeoJson',
        target: 'the GeoJSON of a route of account B',
        expect: [401, 401, 401, 404, 200, 404, 200, 404, 404, 404],
        build: (f) => get(`/routes/${items(f).inB.id}/geojson`),
      },
      {
        operationId: 'getRouteGpx',
        target: 'the GPX of an approved route of A1',
        expect: [401, 401, 401, 200, 404, 200, 200, 404, 200, 200],
        build: (f) => get(`/routes/${items(f).approved.id}/gpx`),
      },
      {
        operationId: 'getRouteGpx',
        target: 'the GPX of a soft-deleted route of A1',
        expect: [401, 401, 401, 404, 404, 404, 404, 404, 404, 404],
        build: (f) => get(`/routes/${items(f).deleted.id}/gpx`),
      },
      {
        operationId: 'getRouteGpx',
        target: 'the GPX of a route of A2',
        expect: [401, 401, 401, 200, 404, 200, 200, 200, 200, 200],
        build: (f) => get(`/routes/${items(f).inA2.id}/gpx`),
      },
    );
  }
  return rows;
}

/** Every other operation. */
const OTHER_ROWS: Row[] = [
  //                                                                        none inv  exp  ext  oAdm adm  super oOrg live sess
  {
    operationId: 'getDictionary',
    target: 'the dictionary root',
    expect: [401, 401, 401, 200, 200, 200, 200, 200, 200, 200],
    build: () => get('/dictionary'),
  },
  {
    operationId: 'getCategorizationOntology',
    target: 'the type ontology of A',
    expect: [401, 401, 401, 200, 200, 200, 200, 200, 200, 200],
    build: (f) => get(`/dictionary/categorizationOntology?accountId=${f.world.accountA}`),
  },
  {
    operationId: 'getPropertiesOntology',
    target: 'the property ontology of A',
    expect: [401, 401, 401, 200, 200, 200, 200, 200, 200, 200],
    build: (f) => get(`/dictionary/propertiesOntology?accountId=${f.world.accountA}`),
  },
  {
    operationId: 'replacePropertiesOntology',
    target: 'the property ontology of A',
    expect: [401, 401, 401, 403, 403, 200, 200, 403, 403, 403],
    build: (f) => json('PUT', `/dictionary/propertiesOntology?accountId=${f.world.accountA}`, f.ontologyOfA),
  },
  {
    operationId: 'listUserOrganisations',
    target: 'the organisations lookup',
    expect: [401, 401, 401, 200, 200, 200, 200, 200, 200, 200],
    build: () => get('/dictionary/userorganisations'),
  },
  {
    operationId: 'listAssets',
    target: "the caller's own assets",
    expect: [401, 401, 401, 200, 200, 200, 200, 200, 200, 200],
    build: () => get('/assets'),
  },
  {
    operationId: 'uploadAsset',
    target: "a new asset in the caller's account",
    expect: [401, 401, 401, 201, 201, 201, 201, 201, 201, 201],
    build: (f) => ({
      method: 'POST',
      path: '/assets',
      ...(({ contentType, body }) => ({ headers: { 'content-type': contentType }, body }))(
        multipartBody({ kind: 'valid' }, f.png),
      ),
    }),
  },
  {
    operationId: 'updateAsset',
    target: 'an asset of A (metadata: own account only)',
    expect: [401, 401, 401, 200, 404, 200, 404, 200, 200, 200],
    build: (f) => json('PUT', `/assets/${f.world.assetA.id}`, { title: 'Matrix' }),
  },
  {
    operationId: 'getAssetFile',
    target: 'the file of an asset of A (any valid token)',
    expect: [401, 401, 401, 200, 200, 200, 200, 200, 200, 200],
    build: (f) => get(`/assets/${f.world.assetA.id}/${f.world.assetA.filename}`),
  },
  {
    operationId: 'createAccountToken',
    target: 'a token in account A',
    expect: [401, 401, 401, 403, 404, 201, 201, 403, 403, 403],
    build: (f) =>
      json('POST', `/accounts/${f.world.accountA}/tokens`, { name: 'matrix', roles: ['ROLE_EXTERNAL_USER'] }),
  },
  {
    operationId: 'updateAccountToken',
    target: 'a token of A',
    expect: [401, 401, 401, 403, 404, 200, 200, 403, 403, 403],
    build: async (f) => json('PUT', `/accounts/${f.world.accountA}/tokens/${await f.tokenOfA()}`, { name: 'renamed' }),
  },
  {
    operationId: 'deleteAccountToken',
    target: 'a token of A',
    expect: [401, 401, 401, 403, 404, 204, 204, 403, 403, 403],
    build: async (f) => del(`/accounts/${f.world.accountA}/tokens/${await f.tokenOfA()}`),
  },
  {
    operationId: 'rotateTokenSecret',
    target: 'a token of A with a webhook',
    expect: [401, 401, 401, 403, 404, 200, 200, 403, 403, 403],
    build: async (f) => ({
      method: 'POST',
      path: `/accounts/${f.world.accountA}/tokens/${await f.tokenOfA(true)}/rotate-secret`,
    }),
  },
  {
    operationId: 'listTokenDeliveries',
    target: 'the deliveries of a token of A',
    expect: [401, 401, 401, 403, 404, 200, 200, 403, 403, 403],
    build: (f) => get(`/accounts/${f.world.accountA}/tokens/${f.world.tokenOfA.id}/deliveries`),
  },
  {
    operationId: 'signIn',
    target: 'the editor of A (no bearer needed)',
    expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
    build: (f) =>
      json('POST', '/auth/signin', {
        username: f.world.users.editor.username,
        password: f.world.users.editor.password,
      }),
  },
  {
    operationId: 'refreshSession',
    target: 'a fresh refresh token (no bearer needed)',
    expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
    build: async (f) => json('POST', '/auth/refresh', { refresh_token: await f.refreshToken() }),
  },
  {
    operationId: 'signOut',
    target: "the caller's session (account tokens: 400)",
    expect: [401, 401, 401, 400, 400, 400, 400, 400, 400, 200],
    build: () => ({ method: 'POST', path: '/auth/logout' }),
    freshSession: true,
  },
  {
    operationId: 'fetchAndConvertFeedOnce',
    target: 'the feed of A',
    expect: [401, 401, 401, 403, 404, 200, 200, 403, 403, 403],
    build: () => ({ method: 'POST', path: `/feeds/${FEED_ID}/fetchAndConvertOnce?size=1` }),
  },
  {
    operationId: 'getFeedRun',
    target: 'a run of the feed of A',
    expect: [401, 401, 401, 403, 404, 200, 200, 403, 403, 403],
    build: (f) => get(`/feeds/${FEED_ID}/runs/${f.world.feedRunId}`),
  },
  {
    operationId: 'getHealth',
    target: 'the health check (no bearer needed)',
    expect: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
    build: () => get('/actuator/health'),
  },
];

const ROWS: Row[] = [...COLLECTION_NAMES.flatMap(itemRows), ...OTHER_ROWS];

const byCaller = (values: readonly (number | string)[]) =>
  Object.fromEntries(CALLERS.map((caller, i) => [caller, values[i]]));

describe('the authorisation matrix', () => {
  it('when the matrix is read, then it covers every operation of the spec and expects only statuses the spec documents for it', () => {
    expect(new Set(ROWS.map((r) => r.operationId))).toEqual(new Set(specOperations().map((op) => op.operationId)));
    for (const row of ROWS) {
      expect(row.expect, row.operationId).toHaveLength(CALLERS.length);
      const documented = specOperation(row.operationId).statuses;
      for (const status of row.expect)
        expect(documented.has(status), `${row.operationId} does not document ${status}`).toBe(true);
    }
  });
});

describeEachEngine('the authorisation matrix', (ctx) => {
  let app: TestApp;
  let http: RawClient;
  let bearers: Record<Caller, string | undefined>;
  let f: Fixtures;

  beforeAll(async () => {
    app = await startTestApp(ctx.db, { env: { RATE_LIMIT_ENABLED: 'false' } });
    http = rawClient(app.baseUrl);
    const world = await buildWorld(ctx.db, app);
    bearers = await callerBearers(app, http, world);
    const ontology = await http.send({
      method: 'GET',
      path: `/dictionary/propertiesOntology?accountId=${world.accountA}`,
      headers: { authorization: `Bearer ${world.tokens.admin}` },
    });
    f = {
      world,
      png: await makeImage('png', 8, 6),
      ontologyOfA: ontology.json,
      item: (c) =>
        createItem(app.baseUrl, world.tokens.admin, c, { userorganisation: world.orgA1, wfstatus: 'approved' }),
      tokenOfA: async (withCallback = false) =>
        (
          await createTestToken(ctx.db, {
            accountId: world.accountA,
            roles: ['ROLE_EXTERNAL_USER'],
            ...(withCallback
              ? { callbackUrl: 'https://93.184.215.14/hooks/matrix', signingSecret: 'm'.repeat(43) }
              : {}),
          })
        ).id,
      refreshToken: async () => (await signIn(http, world.users.editor)).refresh_token,
      session: async () => (await signIn(http, world.users.editor)).access_token,
    };
  });
  afterAll(async () => {
    await http?.close();
    await app?.close();
  });

  it('when a credential is forged or put where it does not belong, then 401: a token in the query string, a session JWT signed with another key or with alg none, or claiming super admin (DEC-ERR-002, API2)', async () => {
    const session = bearers.session!;
    const [, payload] = session.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>;
    const otherKey = new TextEncoder().encode('not-the-session-secret-'.repeat(3));
    const forged = [
      await new SignJWT({ ...claims, roles: ['ROLE_SUPER_ADMIN'] })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(otherKey),
      `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`,
      `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ ...claims, roles: ['ROLE_SUPER_ADMIN'] })).toString('base64url')}.${session.split('.')[2]}`,
    ];
    for (const bearer of forged) {
      const answer = await http.send({
        method: 'GET',
        path: '/accounts/amsterdam/tokens/00000000-0000-4000-8000-000000000000/deliveries',
        headers: { authorization: `Bearer ${bearer}` },
      });
      expect(answer.status, bearer).toBe(401);
    }
    for (const path of [
      `/events?access_token=${f.world.tokens.admin}`,
      `/events/${f.world.items.events.approved.id}?token=${f.world.tokens.admin}`,
      `/assets?api_key=${f.world.tokens.admin}`,
    ]) {
      expect((await http.send({ method: 'GET', path })).status, path).toBe(401);
    }
  });

  // DEC-AUTH-010 on the filter axes: an admin of A restricted to organisation A1 and approved items
  // ("narrow") can give, keep and manage only what it sees itself. `self` is its own token id,
  // `narrowPeer` a token exactly as narrow, `wide` a token of A seeing every status.
  const NARROW: Array<[string, number, (n: NarrowFixtures) => RawRequest]> = [
    [
      'create a token with its own scope',
      201,
      (n) => createToken(n, { userorganisations: [n.orgA1], wfstatus: ['approved'] }),
    ],
    [
      'create a token with its own scope and draft, stored as readyforvalidation, which its own filter lacks',
      403,
      (n) => createToken(n, { userorganisations: [n.orgA1], wfstatus: ['draft', 'approved'] }),
    ],
    ['create a token narrower on both axes', 201, (n) => createToken(n, { userorganisations: [n.orgA1] })],
    [
      'create a token with every status',
      403,
      (n) => createToken(n, { userorganisations: [n.orgA1], wfstatus: ['approved', 'readyforvalidation'] }),
    ],
    [
      'create a token with another organisation of A',
      403,
      (n) => createToken(n, { userorganisations: [n.orgA1, n.orgA2] }),
    ],
    ['create a token without a filter (all organisations of A)', 403, (n) => createToken(n, undefined)],
    ['create a token with an empty filter', 403, (n) => createToken(n, {})],
    ['widen itself with an empty filter', 403, (n) => putToken(n, n.self, { apiTokenFilter: {} })],
    [
      'widen itself to every status',
      403,
      (n) =>
        putToken(n, n.self, { apiTokenFilter: { userorganisations: [n.orgA1], wfstatus: ['approved', 'archived'] } }),
    ],
    ['rename itself', 200, (n) => putToken(n, n.self, { name: 'still narrow' })],
    [
      'widen a token as narrow as itself',
      403,
      (n) => putToken(n, n.narrowPeer, { apiTokenFilter: { userorganisations: [n.orgA2] } }),
    ],
    ['rename a wider token', 403, (n) => putToken(n, n.wide, { name: 'taken over' })],
    [
      'point the webhook of a wider token elsewhere',
      403,
      (n) => putToken(n, n.wide, { callBackUrl: 'https://93.184.215.14/hooks/stolen' }),
    ],
    ['delete a wider token', 403, (n) => del(`/accounts/${n.accountA}/tokens/${n.wide}`)],
    [
      'rotate the secret of a wider token',
      403,
      (n) => ({ method: 'POST', path: `/accounts/${n.accountA}/tokens/${n.wide}/rotate-secret` }),
    ],
  ];
  interface NarrowFixtures {
    accountA: string;
    orgA1: string;
    orgA2: string;
    self: string;
    narrowPeer: string;
    wide: string;
  }
  function createToken(n: NarrowFixtures, apiTokenFilter: Record<string, unknown> | undefined): RawRequest {
    return json('POST', `/accounts/${n.accountA}/tokens`, {
      name: 'by narrow',
      roles: ['ROLE_EXTERNAL_USER'],
      ...(apiTokenFilter === undefined ? {} : { apiTokenFilter }),
    });
  }
  function putToken(n: NarrowFixtures, id: string, body: Record<string, unknown>): RawRequest {
    return json('PUT', `/accounts/${n.accountA}/tokens/${id}`, body);
  }

  it.each(NARROW)(
    'when an admin restricted to one organisation and approved items tries to %s, then the answer is %i (DEC-AUTH-010)',
    async (_what, status, build) => {
      const { world } = f;
      const narrow = {
        accountId: world.accountA,
        roles: ['ROLE_ADMIN'] as const,
        organisations: [world.orgA1],
        wfstatus: ['approved'],
      };
      const self = await createTestToken(ctx.db, narrow);
      const n: NarrowFixtures = {
        accountA: world.accountA,
        orgA1: world.orgA1,
        orgA2: world.orgA2,
        self: self.id,
        narrowPeer: (await createTestToken(ctx.db, { ...narrow, roles: ['ROLE_EXTERNAL_USER'] })).id,
        wide: (
          await createTestToken(ctx.db, {
            accountId: world.accountA,
            roles: ['ROLE_EXTERNAL_USER'],
            wfstatus: ['approved', 'readyforvalidation', 'archived'],
            callbackUrl: 'https://93.184.215.14/hooks/wide',
            signingSecret: 'w'.repeat(43),
          })
        ).id,
      };
      const request = build(n);
      const answer = await http.send({
        ...request,
        headers: { ...request.headers, authorization: `Bearer ${self.token}` },
      });
      expect(answer.status, answer.body.toString().slice(0, 400)).toBe(status);
      if (status === 403) expect((answer.json as { message: string }).message).toMatch(/sees/);
      // Whatever was refused, the narrow token still sees exactly what it saw.
      const hidden = await http.send({
        method: 'GET',
        path: `/events/${world.items.events.hidden.id}`,
        headers: { authorization: `Bearer ${self.token}` },
      });
      expect(hidden.status).toBe(404);
    },
  );

  it.each(ROWS.map((row) => [`${row.operationId} on ${row.target}`, row] as const))(
    'when every kind of caller asks for %s, then each gets exactly its status',
    async (_name, row) => {
      const actual: Array<number | string> = [];
      const problems: string[] = [];
      for (const caller of CALLERS) {
        const request = await row.build(f);
        const bearer = row.freshSession === true && caller === 'session' ? await f.session() : bearers[caller];
        const answer = await http.send({
          ...request,
          headers: { ...request.headers, ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }) },
        });
        actual.push(answer.status);
        if (answer.status >= 400)
          problems.push(...errorBodyProblems(answer.status, answer.json).map((p) => `${caller}: ${p}`));
        if (answer.status === 401 && !/^Bearer/.test(String(answer.headers['www-authenticate'])))
          problems.push(`${caller}: 401 without WWW-Authenticate: Bearer`);
      }
      expect(
        byCaller(actual),
        `${row.operationId} on ${row.target}; callers: ${JSON.stringify(CALLER_MEANING)}`,
      ).toEqual(byCaller(row.expect));
      expect(problems).toEqual([]);
    },
  );
});
