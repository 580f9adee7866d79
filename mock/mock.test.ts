// Starts Prism (`--errors`) on the bundled spec on a free port and checks what an integrator
// relies on: every GET answers every documented example without a 500 (with --errors Prism
// turns an example that breaks its own schema into a 500), list endpoints answer arrays valid
// against their schema, the size cap, the 401 without a token, and the 429 headers.
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrism, type RunningPrism } from './start.ts';
import { createValidatorFactory, escapePointer, formatErrors, loadBundledSpec, resolveRef } from './validators.ts';

const spec = loadBundledSpec();
const validator = createValidatorFactory(spec);
const AUTH = { Authorization: 'Bearer mock-test-token' };
const ITEM_LISTS = ['/events', '/locations', '/routes', '/eventgroups', '/venues'];
const RATE_HEADERS = ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-policy'];

type Parameter = { name: string; in: string; required?: boolean; example?: unknown; examples?: Record<string, { value?: unknown }>; schema?: any };
type GetOperation = { path: string; op: any; parameters: Parameter[] };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function getOperations(): GetOperation[] {
  return Object.entries(spec.paths as Record<string, any>)
    .filter(([, item]) => item.get)
    .map(([p, item]) => ({
      path: p,
      op: item.get,
      parameters: [...(item.parameters ?? []), ...(item.get.parameters ?? [])].map((param: unknown) => resolveRef<Parameter>(spec, param)),
    }));
}

function sampleValue(param: Parameter): string {
  const schema = resolveRef(spec, param.schema ?? {});
  const value =
    param.example ?? Object.values(param.examples ?? {})[0]?.value ?? schema.example ?? schema.examples?.[0] ?? schema.default ?? schema.enum?.[0] ?? (schema.format === 'uuid' ? randomUUID() : 'sample');
  return Array.isArray(value) ? value.join(',') : String(value);
}

/** The operation's URL with path parameters (and required query parameters) filled from the spec's examples. */
function urlFor(base: string, get: GetOperation, query: Record<string, string> = {}): string {
  let p = get.path;
  const search = new URLSearchParams();
  for (const param of get.parameters) {
    if (param.in === 'path') p = p.replace(`{${param.name}}`, encodeURIComponent(sampleValue(param)));
    if (param.in === 'query' && param.required) search.set(param.name, sampleValue(param));
  }
  for (const [k, v] of Object.entries(query)) search.set(k, v);
  const qs = search.toString();
  return `${base}${p}${qs ? `?${qs}` : ''}`;
}

function jsonSchemaPointer(path: string, status: string): string | undefined {
  const response = resolveRef(spec, spec.paths[path].get.responses?.[status]);
  if (!response?.content?.['application/json']) return undefined;
  const original = spec.paths[path].get.responses[status];
  const base = typeof original?.$ref === 'string' ? original.$ref.slice(1) : `/paths/${escapePointer(path)}/get/responses/${status}`;
  return `${base}/content/application~1json/schema`;
}

describe('Prism mock (npm run mock) on generated/openapi.yaml', () => {
  let prism: RunningPrism;
  const gets = getOperations();

  beforeAll(async () => {
    prism = await startPrism({ port: await freePort(), args: ['--errors'] });
    console.log(`Prism 5.16 answered its first request ${prism.firstAnswerMs} ms after start (--errors, static mode).`);
  }, 90_000);

  afterAll(async () => {
    await prism?.stop();
  });

  it('when each GET is asked for each documented example of each status, then each answers that status (no 500 from a broken example)', async () => {
    const failures: string[] = [];
    let requests = 0;
    for (const get of gets) {
      for (const [status, raw] of Object.entries(get.op.responses as Record<string, unknown>)) {
        const response = resolveRef(spec, raw);
        for (const [mediaType, media] of Object.entries((response?.content ?? {}) as Record<string, any>)) {
          const names = Object.keys(media.examples ?? {});
          const prefers = names.length > 0 ? names.map((n) => `code=${status}, example=${n}`) : [`code=${status}`];
          for (const prefer of prefers) {
            if (!/^\d{3}$/.test(status)) continue; // 'default' or '4XX' cannot be forced by code
            requests++;
            const res = await fetch(urlFor(prism.url, get), { headers: { ...AUTH, Prefer: prefer, Accept: mediaType } });
            const body = await res.text();
            // Prism answers the forced status with the example; with --errors an example that
            // breaks its own schema turns into a 500 instead.
            if (res.status !== Number(status)) failures.push(`GET ${get.path} [${prefer}] -> ${res.status}: ${body.slice(0, 500)}`);
          }
        }
      }
    }
    expect(requests).toBeGreaterThan(gets.length);
    expect(failures, prism.output().slice(-3000)).toEqual([]);
  });

  it('when each GET is called plainly, then it answers its documented 200 (or first 2xx)', async () => {
    const failures: string[] = [];
    for (const get of gets) {
      const documented = Object.keys(get.op.responses).filter((s) => s.startsWith('2'));
      const res = await fetch(urlFor(prism.url, get), { headers: AUTH });
      await res.arrayBuffer();
      if (!documented.includes(String(res.status))) failures.push(`GET ${get.path} -> ${res.status} (documented: ${documented.join(', ')})`);
    }
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
      const res = await fetch(urlFor(prism.url, get as GetOperation, { size: '2001' }), { headers: AUTH });
      expect(res.status, `GET ${list}?size=2001`).toBe(400);
      const body: unknown = await res.json();
      expect(validate(body), `GET ${list}?size=2001: ${JSON.stringify(body)} ${formatErrors(validate)}`).toBe(true);
    }
  });

  it('when a secured operation is called without a token, then it answers 401; health needs none', async () => {
    const events = gets.find((g) => g.path === '/events') as GetOperation;
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
