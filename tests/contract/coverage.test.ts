// (b) Interface coverage: every method + path, query parameter and webhook that the interface
// text (../shared/seeds/interface-specification.md) names must be in the bundled spec. The lists
// are written out by hand from the interface text on purpose: the spec must not be its own oracle.
import { describe, expect, it } from 'vitest';
import { resolveRef } from '../../spec/index.ts';
import { loadSpec, operations } from './spec.ts';

const spec = loadSpec();
const ops = operations(spec);

const COLLECTIONS = ['/events', '/locations', '/routes', '/eventgroups', '/venues'];
/** Known query parameters of the list endpoints ("Item collections"). */
const LIST_QUERY = ['size', 'sortField', 'sortOrder', 'lastupdated', 'wfstatus', 'published', 'trcid', 'page'];

type Expected = { method: string; path: string; query?: string[]; source: string };

/** Named by the interface text itself. */
const INTERFACE: Expected[] = [
  ...COLLECTIONS.map((c) => ({
    method: 'GET',
    path: c,
    query: c === '/events' ? [...LIST_QUERY, 'excludePatternDates'] : LIST_QUERY,
    source: 'Item collections',
  })),
  ...COLLECTIONS.map((c) => ({ method: 'GET', path: `${c}/{id}`, source: 'Item collections: detail read' })),
  ...COLLECTIONS.map((c) => ({ method: 'POST', path: c, source: 'Item collections: create' })),
  { method: 'GET', path: '/routes/{id}/geojson', source: 'Item collections: per-route download' },
  { method: 'GET', path: '/routes/{id}/gpx', source: 'Item collections: per-route download' },
  { method: 'GET', path: '/dictionary/categorizationOntology', query: ['accountId'], source: 'Dictionary' },
  { method: 'GET', path: '/dictionary/propertiesOntology', query: ['accountId'], source: 'Dictionary' },
  {
    method: 'PUT',
    path: '/dictionary/propertiesOntology',
    query: ['accountId'],
    source: 'Dictionary: account override, admin only',
  },
  { method: 'GET', path: '/dictionary/userorganisations', source: 'Dictionary' },
  { method: 'GET', path: '/dictionary', source: 'Dictionary: root collection' },
  { method: 'GET', path: '/assets', query: ['lastupdated', 'sortField', 'sortOrder', 'size'], source: 'Assets' },
  { method: 'GET', path: '/assets/{id}/{filename}', query: ['w', 'h', 'mode'], source: 'Assets: file with resize' },
  { method: 'POST', path: '/assets', source: 'Assets: upload' },
  { method: 'PUT', path: '/assets/{id}', source: 'Assets: metadata update' },
  { method: 'POST', path: '/accounts/{accountId}/tokens', source: 'Accounts and tokens' },
  { method: 'PUT', path: '/accounts/{accountId}/tokens/{tokenId}', source: 'Accounts and tokens' },
  { method: 'DELETE', path: '/accounts/{accountId}/tokens/{tokenId}', source: 'Accounts and tokens' },
  { method: 'POST', path: '/accounts/{accountId}/tokens/{tokenId}/rotate-secret', source: 'Accounts and tokens' },
  { method: 'POST', path: '/auth/signin', source: 'Session and feed administration' },
  {
    method: 'POST',
    path: '/feeds/{feedID}/fetchAndConvertOnce',
    query: ['size', 'feedInfoId', 'externalID'],
    source: 'Session and feed administration',
  },
  { method: 'GET', path: '/actuator/health', source: 'Session and feed administration' },
];

/** Not shown in the interface; decided in spec/DECISIONS.md. */
const DECIDED: Expected[] = [
  ...COLLECTIONS.map((c) => ({ method: 'PUT', path: `${c}/{id}`, source: 'DEC-ITEM-001' })),
  ...COLLECTIONS.map((c) => ({ method: 'DELETE', path: `${c}/{id}`, source: 'DEC-ITEM-003' })),
  {
    method: 'POST',
    path: '/auth/logout',
    source: 'DEC-AUTH-003 (the interface names /auth/logout without its method)',
  },
  { method: 'POST', path: '/auth/refresh', source: 'DEC-AUTH-002' },
  { method: 'GET', path: '/accounts/{accountId}/tokens/{tokenId}/deliveries', source: 'DEC-HOOK-007' },
  { method: 'GET', path: '/feeds/{feedID}/runs/{runId}', source: 'DEC-FEED-002' },
];

const WEBHOOKS = [
  'EventUpdated',
  'EventDeleted',
  'LocationUpdated',
  'LocationDeleted',
  'RouteUpdated',
  'RouteDeleted',
  'EventGroupUpdated',
  'EventGroupDeleted',
  'VenueUpdated',
  'VenueDeleted',
];

function find(method: string, path: string) {
  return ops.find((o) => o.section === 'paths' && o.method === method.toLowerCase() && o.key === path);
}

function queryNames(method: string, path: string): string[] {
  return (find(method, path)?.parameters ?? []).filter((p) => p.in === 'query').map((p) => String(p.name));
}

function querySchema(method: string, path: string, name: string): Record<string, any> | undefined {
  const param = find(method, path)?.parameters.find((p) => p.in === 'query' && p.name === name);
  return param ? resolveRef(spec, param.schema) : undefined;
}

describe('interface coverage of the bundled spec', () => {
  it('when the interface names a method and path, then the spec has that operation', () => {
    const missing = INTERFACE.filter((e) => !find(e.method, e.path)).map((e) => `${e.method} ${e.path} (${e.source})`);
    expect(missing).toEqual([]);
  });

  it('when a decision adds a method and path, then the spec has that operation', () => {
    const missing = DECIDED.filter((e) => !find(e.method, e.path)).map((e) => `${e.method} ${e.path} (${e.source})`);
    expect(missing).toEqual([]);
  });

  it('when the interface names a query parameter of an operation, then the spec declares it there', () => {
    const missing = INTERFACE.flatMap((e) =>
      (e.query ?? [])
        .filter((q) => !queryNames(e.method, e.path).includes(q))
        .map((q) => `${e.method} ${e.path} ?${q}`),
    );
    expect(missing).toEqual([]);
  });

  it('when the interface states a query parameter bound or default, then the schema carries it', () => {
    const wrong: string[] = [];
    for (const c of COLLECTIONS) {
      const size = querySchema('GET', c, 'size');
      if (size?.maximum !== 2000) wrong.push(`GET ${c} ?size maximum is ${size?.maximum}, interface: 2000`);
      const sortField = querySchema('GET', c, 'sortField');
      if (sortField?.default !== 'lastupdated')
        wrong.push(`GET ${c} ?sortField default is ${sortField?.default}, interface: lastupdated`);
      const sortOrder = querySchema('GET', c, 'sortOrder');
      if (sortOrder?.default !== 'DESC')
        wrong.push(`GET ${c} ?sortOrder default is ${sortOrder?.default}, interface: DESC`);
      for (const v of ['ASC', 'DESC']) if (!sortOrder?.enum?.includes(v)) wrong.push(`GET ${c} ?sortOrder lacks ${v}`);
    }
    const feedSize = querySchema('POST', '/feeds/{feedID}/fetchAndConvertOnce', 'size');
    if (feedSize?.minimum !== 1 || feedSize?.maximum !== 1000)
      wrong.push(`fetchAndConvertOnce ?size is ${feedSize?.minimum}..${feedSize?.maximum}, interface: 1..1000`);
    const assetSort = querySchema('GET', '/assets', 'sortField');
    for (const v of ['date', 'name', 'size', 'modified', 'lastupdated']) {
      if (assetSort?.enum && !assetSort.enum.includes(v)) wrong.push(`GET /assets ?sortField lacks ${v}`);
    }
    expect(wrong).toEqual([]);
  });

  it('when the interface names the ten webhook event types, then each is a POST webhook of the spec', () => {
    const missing = WEBHOOKS.filter(
      (name) => !ops.some((o) => o.section === 'webhooks' && o.key === name && o.method === 'post'),
    );
    expect(missing).toEqual([]);
    expect(Object.keys(spec.webhooks ?? {}).sort()).toEqual([...WEBHOOKS].sort());
  });

  it('when a webhook is described, then it declares the three X-Service-* delivery headers as required', () => {
    const wrong: string[] = [];
    for (const name of WEBHOOKS) {
      const op = ops.find((o) => o.section === 'webhooks' && o.key === name);
      for (const header of ['X-Service-Timestamp', 'X-Service-Signature', 'X-Service-Delivery']) {
        const p = op?.parameters.find(
          (x) => x.in === 'header' && String(x.name).toLowerCase() === header.toLowerCase(),
        );
        if (!p?.required) wrong.push(`${name}: ${header} ${p ? 'not required' : 'missing'}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
