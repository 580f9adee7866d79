// Starts Prism (`--errors`) on the bundled spec on a free port and checks what an integrator
// relies on: every operation (GET, POST, PUT, DELETE, the multipart upload; webhooks are not
// served by Prism) answers every documented status with every documented example, given a valid
// request (the spec's request examples), without a 500 (with --errors Prism turns an example that
// breaks its own schema into a 500) and with an answer valid against the spec; list endpoints
// answer arrays valid against their schema; the size cap, the 401 without a token, and the 429
// headers. One Prism process serves every test.
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrism, type RunningPrism } from './start.ts';
import {
  createValidatorFactory,
  formatErrors,
  indexOperations,
  loadSpec,
  operationParameters,
  resolveRef,
  responseSchemaPointer,
  type OperationRef,
} from '../spec/index.ts';

const { document: spec } = loadSpec();
const validator = createValidatorFactory(spec);
const AUTH = { Authorization: 'Bearer mock-test-token' };
const ITEM_LISTS = ['/events', '/locations', '/routes', '/eventgroups', '/venues'];
const RATE_HEADERS = ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-policy'];
/** A 1×1 PNG: the file part of a valid upload. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==',
  'base64',
);

type Parameter = {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
  schema?: any;
};
type Operation = { ref: OperationRef; method: OperationRef['method']; path: string; op: any; parameters: Parameter[] };
/** One request to send: the operation, the request example it carries (if any) and what it asks Prism for. */
type Exchange = {
  operation: Operation;
  requestExample: string | undefined;
  status: string;
  mediaType: string | undefined;
  prefer: string;
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Every operation of the spec's paths (webhooks are a separate map, which Prism does not serve). */
function allOperations(): Operation[] {
  return [...indexOperations(spec).values()].map((ref) => ({
    ref,
    method: ref.method,
    path: ref.path,
    op: ref.operation,
    parameters: operationParameters(spec, ref).map(({ parameter }) => parameter as Parameter),
  }));
}

function label(operation: Operation): string {
  return `${operation.method.toUpperCase()} ${operation.path}`;
}

function sampleValue(param: Parameter): string {
  const schema = resolveRef(spec, param.schema ?? {});
  const value =
    param.example ??
    Object.values(param.examples ?? {})[0]?.value ??
    schema.example ??
    schema.examples?.[0] ??
    schema.default ??
    schema.enum?.[0] ??
    (schema.format === 'uuid' ? randomUUID() : 'sample');
  return Array.isArray(value) ? value.join(',') : String(value);
}

/** The operation's URL with path parameters (and required query parameters) filled from the spec's examples. */
function urlFor(base: string, operation: Operation, query: Record<string, string> = {}): string {
  let p = operation.path;
  const search = new URLSearchParams();
  for (const param of operation.parameters) {
    if (param.in === 'path') p = p.replace(`{${param.name}}`, encodeURIComponent(sampleValue(param)));
    if (param.in === 'query' && param.required) search.set(param.name, sampleValue(param));
  }
  for (const [k, v] of Object.entries(query)) search.set(k, v);
  const qs = search.toString();
  return `${base}${p}${qs ? `?${qs}` : ''}`;
}

/** The request body's media type and its named examples (a multipart upload has none: one is built). */
function requestContent(operation: Operation): { mediaType: string; examples: Record<string, unknown> } | undefined {
  const body = resolveRef(spec, operation.op.requestBody);
  const [mediaType, media] = Object.entries((body?.content ?? {}) as Record<string, any>)[0] ?? [];
  if (mediaType === undefined) return undefined;
  const examples = Object.fromEntries(
    Object.entries(media.examples ?? {}).map(([name, example]) => [name, resolveRef(spec, example).value]),
  );
  if (media.example !== undefined) examples.example = media.example;
  return { mediaType, examples };
}

/** A valid request for the operation: headers (token unless `security: []`) and the named request example as body. */
function requestInit(
  operation: Operation,
  requestExample: string | undefined,
  headers: Record<string, string> = {},
): RequestInit {
  const secured = !(Array.isArray(operation.op.security) && operation.op.security.length === 0);
  const init: RequestInit & { headers: Record<string, string> } = {
    method: operation.method.toUpperCase(),
    headers: { ...(secured ? AUTH : {}), ...headers },
  };
  for (const param of operation.parameters)
    if (param.in === 'header' && param.required) init.headers[param.name] = sampleValue(param);
  const content = requestContent(operation);
  if (content?.mediaType === 'multipart/form-data') {
    const form = new FormData();
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'grachten.png');
    form.append('title', 'Grachten bij avond');
    init.body = form;
  } else if (content !== undefined && requestExample !== undefined) {
    init.headers['Content-Type'] = content.mediaType;
    init.body = JSON.stringify(content.examples[requestExample]);
  }
  return init;
}

/** JSON pointer of the schema of `operation`'s `status` response in `mediaType` (a $ref'd response at its component). */
function schemaPointer(operation: Operation, status: string, mediaType: string): string {
  const pointer = responseSchemaPointer(spec, operation.ref, status, mediaType);
  if (pointer === undefined) throw new Error(`${label(operation)} documents no ${mediaType} schema for ${status}`);
  return pointer;
}

function jsonSchemaPointer(path: string, status: string): string | undefined {
  const operation = allOperations().find((o) => o.path === path && o.method === 'get');
  const response = resolveRef(spec, operation?.op.responses?.[status]);
  if (operation === undefined || !response?.content?.['application/json']) return undefined;
  return schemaPointer(operation, status, 'application/json');
}

/** Each documented status of each operation, once per named example of each media type (or once without a name). */
function exchanges(operations: readonly Operation[]): Exchange[] {
  return operations.flatMap((operation) => {
    const requestExample = Object.keys(requestContent(operation)?.examples ?? {})[0];
    return Object.entries(operation.op.responses as Record<string, unknown>)
      .filter(([status]) => /^\d{3}$/.test(status)) // 'default' or '4XX' cannot be forced by code
      .flatMap(([status, raw]): Exchange[] => {
        const media = Object.entries((resolveRef(spec, raw)?.content ?? {}) as Record<string, any>);
        if (media.length === 0)
          return [{ operation, requestExample, status, mediaType: undefined, prefer: `code=${status}` }];
        return media.flatMap(([mediaType, m]) => {
          const names = Object.keys(m.examples ?? {});
          const prefers = names.length > 0 ? names.map((n) => `code=${status}, example=${n}`) : [`code=${status}`];
          return prefers.map((prefer) => ({ operation, requestExample, status, mediaType, prefer }));
        });
      });
  });
}

/** What is wrong with Prism's answer to `exchange` against the spec (empty when nothing). */
async function answerProblems(exchange: Exchange, res: Response): Promise<string[]> {
  const { operation, status, mediaType } = exchange;
  const problems: string[] = [];
  const body = Buffer.from(await res.arrayBuffer());
  // With --errors, an example that breaks its own schema turns into a 500 instead.
  if (res.status !== Number(status)) return [`answered ${res.status}: ${body.toString('utf8').slice(0, 500)}`];
  const response = resolveRef(spec, operation.op.responses[status]);
  for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, unknown>)) {
    if (resolveRef(spec, header).required === true && res.headers.get(name) === null)
      problems.push(`required header ${name} missing`);
  }
  if (mediaType === undefined) return problems;
  const type = res.headers.get('content-type') ?? '';
  if (!type.startsWith(mediaType)) problems.push(`Content-Type ${type} (documented: ${mediaType})`);
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      return [...problems, `body is not JSON: ${body.toString('utf8').slice(0, 200)}`];
    }
    const validate = validator(schemaPointer(operation, status, mediaType));
    if (!validate(parsed)) problems.push(`body invalid against the spec: ${formatErrors(validate)}`);
  } else if (body.length === 0) {
    problems.push('empty body');
  }
  return problems;
}

async function inPool<T>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

describe('Prism mock (npm run mock) on generated/openapi.yaml', () => {
  let prism: RunningPrism;
  const operations = allOperations();
  const gets = operations.filter((o) => o.method === 'get');

  beforeAll(async () => {
    prism = await startPrism({ port: await freePort(), args: ['--errors'] });
    console.log(`Prism 5.16 answered its first request ${prism.firstAnswerMs} ms after start (--errors, static mode).`);
  }, 90_000);

  afterAll(async () => {
    await prism?.stop();
  });

  it('when the spec is read, then every operation is covered: each method, the upload, every request example', () => {
    expect(new Set(operations.map((o) => o.method))).toEqual(new Set(['get', 'post', 'put', 'delete']));
    expect(operations.map(label)).toEqual(
      expect.arrayContaining([
        'POST /assets',
        'PUT /events/{id}',
        'DELETE /events/{id}',
        'POST /auth/signin',
        'PUT /dictionary/propertiesOntology',
      ]),
    );
    const withoutExample = operations.filter(
      (o) =>
        o.op.requestBody !== undefined &&
        requestContent(o)?.mediaType !== 'multipart/form-data' &&
        Object.keys(requestContent(o)?.examples ?? {}).length === 0,
    );
    expect(withoutExample.map(label), 'request bodies without a named example').toEqual([]);
  });

  it('when each operation is asked for each documented example of each status with a valid request, then it answers that status, no 500, valid against the spec', async () => {
    const all = exchanges(operations);
    const failures: string[] = [];
    const started = performance.now();
    await inPool(all, 4, async (exchange) => {
      const headers: Record<string, string> = {
        Prefer: exchange.prefer,
        ...(exchange.mediaType === undefined ? {} : { Accept: exchange.mediaType }),
      };
      const res = await fetch(
        urlFor(prism.url, exchange.operation),
        requestInit(exchange.operation, exchange.requestExample, headers),
      );
      const problems = await answerProblems(exchange, res);
      if (problems.length > 0)
        failures.push(`${label(exchange.operation)} [Prefer: ${exchange.prefer}] ${problems.join('; ')}`);
    });
    console.log(
      `Prism: ${all.length} forced answers over ${operations.length} operations in ${Math.round(performance.now() - started)} ms.`,
    );
    // every operation, and every documented status of each, was asked for
    expect(new Set(all.map((e) => label(e.operation)))).toEqual(new Set(operations.map(label)));
    expect(all.length).toBeGreaterThan(operations.length * 4);
    expect(failures.sort(), prism.output().slice(-3000)).toEqual([]);
  });

  it('when each request example is sent plainly, then Prism accepts it and answers the documented success (the examples are valid requests)', async () => {
    const failures: string[] = [];
    const sent: string[] = [];
    for (const operation of operations) {
      const content = requestContent(operation);
      const names =
        content === undefined
          ? [undefined]
          : content.mediaType === 'multipart/form-data'
            ? ['multipart']
            : Object.keys(content.examples);
      const documented = Object.keys(operation.op.responses).filter((s) => s.startsWith('2'));
      for (const name of names) {
        const res = await fetch(urlFor(prism.url, operation), requestInit(operation, name));
        const body = await res.text();
        sent.push(`${label(operation)} ${name ?? ''}`);
        if (!documented.includes(String(res.status))) {
          failures.push(
            `${label(operation)} ${name ?? '(no body)'} -> ${res.status} (documented: ${documented.join(', ')}): ${res.headers.get('sl-violations') ?? body.slice(0, 300)}`,
          );
        }
      }
    }
    expect(sent.length).toBeGreaterThan(operations.length);
    expect(failures).toEqual([]);
  });

  it('when a list endpoint is called, then it answers a JSON array valid against its schema', async () => {
    const arrays = gets.filter((g) => {
      const pointer = jsonSchemaPointer(g.path, '200');
      if (!pointer) return false;
      const schema = resolveRef(spec, resolveRef(spec, g.op.responses['200']).content['application/json'].schema);
      return schema?.type === 'array';
    });
    expect(arrays.map((g) => g.path)).toEqual(expect.arrayContaining(ITEM_LISTS));
    for (const get of arrays) {
      const res = await fetch(urlFor(prism.url, get), { headers: AUTH });
      expect(res.status, `GET ${get.path}`).toBe(200);
      const body: unknown = await res.json();
      expect(Array.isArray(body), `GET ${get.path} answers an array`).toBe(true);
      const validate = validator(jsonSchemaPointer(get.path, '200') as string);
      expect(validate(body), `GET ${get.path}: ${formatErrors(validate)}`).toBe(true);
    }
  });

  it('when size=2001 is sent to an item list, then it answers 400 with a SizeCapError body', async () => {
    const validate = validator('/components/schemas/SizeCapError');
    for (const list of ITEM_LISTS) {
      const get = gets.find((g) => g.path === list);
      expect(get, `${list} in the spec`).toBeDefined();
      const res = await fetch(urlFor(prism.url, get as Operation, { size: '2001' }), { headers: AUTH });
      expect(res.status, `GET ${list}?size=2001`).toBe(400);
      const body: unknown = await res.json();
      expect(validate(body), `GET ${list}?size=2001: ${JSON.stringify(body)} ${formatErrors(validate)}`).toBe(true);
    }
  });

  it('when a secured operation is called without a token, then it answers 401; health needs none', async () => {
    const events = gets.find((g) => g.path === '/events') as Operation;
    const res = await fetch(urlFor(prism.url, events));
    expect(res.status).toBe(401);
    const validate = validator('/components/schemas/Error');
    expect(validate(await res.json()), formatErrors(validate)).toBe(true);

    const health = await fetch(`${prism.url}/actuator/health`);
    expect(health.status).toBe(200);
  });

  it('when a rate-limited operation is asked for Prefer: code=429, then it sends Retry-After and the X-RateLimit headers', async () => {
    const limited = gets.filter((g) => g.op['x-rate-limited'] === true);
    expect(limited.map((g) => g.path).sort()).toEqual([...ITEM_LISTS, '/dictionary'].sort());
    for (const get of limited) {
      const res = await fetch(urlFor(prism.url, get), { headers: { ...AUTH, Prefer: 'code=429' } });
      await res.arrayBuffer();
      expect(res.status, `GET ${get.path}`).toBe(429);
      for (const header of RATE_HEADERS) expect(res.headers.get(header), `GET ${get.path} ${header}`).toBeTruthy();
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  });
});
