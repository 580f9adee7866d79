import fc from 'fast-check';
import type { Collection } from '../../../src/domain/entityRules.ts';
import {
  jsonBodyBytes,
  jsonBodyRecipe,
  multipartBody,
  multipartRecipe,
  type JsonBodyRecipe,
  type MultipartRecipe,
} from './hostileBodies.ts';
import {
  authChoice,
  BROKEN_ENCODINGS,
  headerLoad,
  headerLoadHeaders,
  hostileUrlValue,
  queryValue,
  TRAVERSALS,
  type AuthChoice,
  type HeaderLoad,
} from './hostileValues.ts';
import type { RawRequest } from './rawHttp.ts';
import type { SpecOperation } from './specOperations.ts';
import { COLLECTION_NAMES, FEED_ID, type SecurityWorld } from './world.ts';

// One fuzz request as a recipe: the operation, how each path id is chosen (an existing object,
// a random id, or something hostile), the query pairs, the caller, the header load and the body.
// `materialize` turns it into bytes against a concrete world.

export type PathValue =
  { kind: 'existing'; index: number } | { kind: 'uuid'; value: string } | { kind: 'hostile'; value: string };

export type BodyChoice =
  | { kind: 'none' }
  | { kind: 'json'; recipe: JsonBodyRecipe; contentType: string }
  | { kind: 'multipart'; recipe: MultipartRecipe };

export interface FuzzCase {
  operationId: string;
  /** The operation's method, or another one (405, or HEAD on a GET). */
  method: string;
  path: Record<string, PathValue>;
  /** Raw `name=value` pairs, in order; names may repeat or be unknown. */
  query: Array<[string, string]>;
  auth: AuthChoice;
  headers: HeaderLoad;
  ifNoneMatch: string | undefined;
  body: BodyChoice;
}

const JSON_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/merge-patch+json',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'text/json',
  '',
  'application/json, text/plain',
];

const pathValue: fc.Arbitrary<PathValue> = fc.oneof(
  { weight: 6, arbitrary: fc.nat({ max: 20 }).map((index): PathValue => ({ kind: 'existing', index })) },
  { weight: 2, arbitrary: fc.uuid().map((value): PathValue => ({ kind: 'uuid', value })) },
  { weight: 1, arbitrary: fc.constantFrom(...TRAVERSALS).map((value): PathValue => ({ kind: 'hostile', value })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...BROKEN_ENCODINGS).map((value): PathValue => ({ kind: 'hostile', value })),
  },
  // never empty: an empty segment is another route (`/events/` is the list), not this operation
  {
    weight: 2,
    arbitrary: hostileUrlValue.filter((value) => value !== '').map((value): PathValue => ({ kind: 'hostile', value })),
  },
);

function queryPairs(op: SpecOperation): fc.Arbitrary<Array<[string, string]>> {
  const declared = op.parameters
    .filter((p) => p.in === 'query')
    .map((p) =>
      fc.option(
        queryValue(p.schema, p.items).map((v): [string, string] => [p.name, v]),
        { freq: 2, nil: undefined },
      ),
    );
  const names = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
  const extras = fc.array(
    fc.oneof(
      // the same parameter twice (or in array / object syntax)
      ...(names.length > 0
        ? [
            fc
              .tuple(fc.constantFrom(...names), fc.constantFrom('', '[]', '[a]', '%5B%5D'))
              .map(([n, suffix]): [string, string] => [`${n}${suffix}`, '1']),
          ]
        : []),
      fc
        .constantFrom('foo', '__proto__', 'constructor', 'hasOwnProperty', 'toString', '%FF', '%', '', 'a'.repeat(3000))
        .map((n): [string, string] => [n, 'x']),
    ),
    { maxLength: 2 },
  );
  const noExtras = fc.constant([] as Array<[string, string]>);
  return fc
    .tuple(fc.tuple(...declared), fc.oneof({ weight: 4, arbitrary: noExtras }, { weight: 1, arbitrary: extras }))
    .map(([chosen, extra]) => [...chosen.filter((p): p is [string, string] => p !== undefined), ...extra]);
}

function bodyChoice(op: SpecOperation): fc.Arbitrary<BodyChoice> {
  const json = fc.record({
    kind: fc.constant('json' as const),
    recipe: jsonBodyRecipe,
    contentType: fc.oneof(
      { weight: 12, arbitrary: fc.constant('application/json') },
      { weight: 3, arbitrary: fc.constantFrom(...JSON_TYPES) },
    ),
  });
  if (op.body?.mediaType === 'multipart/form-data') {
    return fc.oneof(
      { weight: 6, arbitrary: fc.record({ kind: fc.constant('multipart' as const), recipe: multipartRecipe }) },
      { weight: 1, arbitrary: json },
      { weight: 1, arbitrary: fc.constant<BodyChoice>({ kind: 'none' }) },
    );
  }
  if (op.body !== undefined)
    return fc.oneof(
      { weight: 12, arbitrary: json },
      { weight: 1, arbitrary: fc.constant<BodyChoice>({ kind: 'none' }) },
    );
  // Operations without a body get one now and then.
  return fc.oneof({ weight: 8, arbitrary: fc.constant<BodyChoice>({ kind: 'none' }) }, { weight: 1, arbitrary: json });
}

export function fuzzCase(op: SpecOperation): fc.Arbitrary<FuzzCase> {
  const pathNames = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
  const otherMethods = [
    'PATCH',
    'OPTIONS',
    'TRACE',
    ...(op.method === 'GET' ? ['HEAD'] : []),
    ...['GET', 'PUT', 'POST', 'DELETE'].filter((m) => m !== op.method),
  ];
  return fc.record({
    operationId: fc.constant(op.operationId),
    method: fc.oneof(
      { weight: 24, arbitrary: fc.constant<string>(op.method) },
      { weight: 1, arbitrary: fc.constantFrom(...otherMethods) },
    ),
    path: fc.record(Object.fromEntries(pathNames.map((name) => [name, pathValue]))) as fc.Arbitrary<
      Record<string, PathValue>
    >,
    query: queryPairs(op),
    auth: op.authenticated
      ? authChoice
      : fc.oneof(
          { weight: 6, arbitrary: fc.constant<AuthChoice>({ kind: 'none' }) },
          { weight: 1, arbitrary: authChoice },
        ),
    headers: headerLoad,
    ifNoneMatch:
      op.operationId === 'getAssetFile'
        ? fc.option(fc.constantFrom('*', '"x"', 'W/"x"', '"a", "b"', 'x'.repeat(2000), '\u00ff'), {
            freq: 3,
            nil: undefined,
          })
        : fc.constant(undefined),
    body: bodyChoice(op),
  });
}

/** The objects a path parameter can name in `world`, for `existing` choices. */
export function existingValues(op: SpecOperation, name: string, world: SecurityWorld): string[] {
  const collection = op.path.split('/')[1] as Collection;
  if (name === 'id' && COLLECTION_NAMES.includes(collection)) {
    const items = world.items[collection];
    const other = world.items[COLLECTION_NAMES[(COLLECTION_NAMES.indexOf(collection) + 1) % COLLECTION_NAMES.length]!];
    return [
      items.approved.id,
      items.hidden.id,
      items.archived.id,
      items.deleted.id,
      items.inA2.id,
      items.inB.id,
      other.approved.id,
      items.approved.id.toUpperCase(),
    ];
  }
  if (name === 'id') return [world.assetA.id, world.assetB.id];
  if (name === 'filename') return [world.assetA.filename, world.assetB.filename, 'renamed.jpg'];
  if (name === 'accountId') return [world.accountA, world.accountB, world.accountS, 'no-such-account'];
  if (name === 'tokenId') return [world.tokenOfA.id];
  if (name === 'feedID') return [FEED_ID, 'no-such-feed'];
  if (name === 'runId') return [world.feedRunId];
  throw new Error(`no existing values for path parameter ${name} of ${op.operationId}`);
}

export interface MaterializeContext {
  world: SecurityWorld;
  png: Buffer;
}

export interface Materialized {
  request: RawRequest;
  /** Approximate bytes of the request line and headers (Node refuses more than 16 KiB with 431). */
  headerBytes: number;
}

export function materialize(c: FuzzCase, op: SpecOperation, ctx: MaterializeContext): Materialized {
  let path = op.path;
  for (const [name, value] of Object.entries(c.path)) {
    const existing = existingValues(op, name, ctx.world);
    const text = value.kind === 'existing' ? encodeURIComponent(existing[value.index % existing.length]!) : value.value;
    path = path.replace(`{${name}}`, text);
  }
  const query = c.query.map(([n, v]) => `${n}=${v}`).join('&');
  const target = query === '' ? path : `${path}?${query}`;

  const headers: Record<string, string> = { ...headerLoadHeaders(c.headers) };
  if (c.auth.kind === 'token') headers.authorization = `Bearer ${ctx.world.tokens[c.auth.who]}`;
  if (c.auth.kind === 'raw') headers.authorization = c.auth.value;
  if (c.ifNoneMatch !== undefined) headers['if-none-match'] = c.ifNoneMatch;
  let body: Buffer | undefined;
  if (c.body.kind === 'json') {
    body = jsonBodyBytes(c.body.recipe, op.body?.examples ?? []);
    if (c.body.contentType !== '') headers['content-type'] = c.body.contentType;
    if (c.body.recipe.kind === 'encoded') headers['content-encoding'] = c.body.recipe.encoding;
  } else if (c.body.kind === 'multipart') {
    const multipart = multipartBody(c.body.recipe, ctx.png);
    body = multipart.body;
    headers['content-type'] = multipart.contentType;
  }
  // Bodies on GET and HEAD are not sent (undici refuses them on HEAD; servers may ignore them on GET).
  if (c.method === 'HEAD' || c.method === 'TRACE') body = undefined;
  const headerBytes =
    c.method.length +
    target.length +
    16 +
    Object.entries(headers).reduce((sum, [n, v]) => sum + n.length + v.length + 4, 0);
  return { request: { method: c.method, path: target, headers, ...(body === undefined ? {} : { body }) }, headerBytes };
}

/** A short, readable description of a case for failure reports (no huge bodies). */
export function describeCase(c: FuzzCase, m: Materialized): string {
  const shorten = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}…(${s.length} chars)` : s);
  const body =
    c.body.kind === 'none'
      ? 'no body'
      : `${c.body.kind} ${shorten(JSON.stringify(c.body.recipe))}${c.body.kind === 'json' ? ` as ${JSON.stringify(c.body.contentType)}` : ''}`;
  const auth =
    c.auth.kind === 'token' ? c.auth.who : c.auth.kind === 'raw' ? shorten(JSON.stringify(c.auth.value)) : 'no token';
  return `${c.method} ${shorten(m.request.path)} [${c.operationId}; ${auth}; headers ${JSON.stringify(c.headers)} ~${m.headerBytes} B; ${body}]`;
}
