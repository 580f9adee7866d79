// The typed client against the Prism mock of generated/openapi.yaml: every call must pass Prism's
// request validation (query serialisation, bearer) and return data that validates against the
// spec's schemas. Prism serves the paths without the /api prefix.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createValidatorFactory, formatErrors, loadSpec } from '../../spec/index.ts';
import { createContentClient, type ContentClient } from '../http/contentClient.ts';
import { createMemoryStore } from '../sync/memoryStore.ts';
import { SyncProtocolError } from '../sync/keyset.ts';
import { syncItems } from '../sync/syncItems.ts';
import { COLLECTIONS } from '../sync/types.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const PRISM = `${root}node_modules/@stoplight/prism-cli/dist/index.js`;

const schemaAt = createValidatorFactory(loadSpec().document);
function conforms(schema: string, value: unknown): string {
  const validate = schemaAt(`/components/schemas/${schema}`);
  return validate(value) ? 'ok' : formatErrors(validate);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

let prism: ChildProcess;
let output = '';
let client: ContentClient;

beforeAll(async () => {
  const port = await freePort();
  // Never `-m` (crashes Prism 5.16 at start); SCARF_ANALYTICS=false turns off its install analytics.
  prism = spawn(process.execPath, [PRISM, 'mock', 'generated/openapi.yaml', '-p', String(port), '-h', '127.0.0.1'], {
    cwd: root,
    env: { ...process.env, SCARF_ANALYTICS: 'false', NODE_ENV: 'test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  prism.stdout?.on('data', (c: Buffer) => void (output += c.toString()));
  prism.stderr?.on('data', (c: Buffer) => void (output += c.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 50_000;
  for (;;) {
    if (prism.exitCode !== null) throw new Error(`Prism exited with ${prism.exitCode}:\n${output}`);
    if (
      await fetch(`${baseUrl}/actuator/health`).then(
        () => true,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error(`Prism did not answer within 50 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  client = createContentClient({ baseUrl, token: 'cst_mock-token', transportOptions: { retry: false } });
}, 60_000);

afterAll(async () => {
  await client?.close();
  if (prism && prism.exitCode === null) {
    await new Promise<void>((resolve) => {
      prism.once('exit', () => resolve());
      prism.kill('SIGTERM');
    });
  }
});

describe('typed client against the Prism mock', () => {
  it.each(COLLECTIONS)(
    'when listing %s with the sync query, then Prism accepts it and the items validate as TrcItem [SYNC-002]',
    async (collection) => {
      const items = await client.listItems(collection, {
        wfstatus: ['approved', 'archived', 'deleted'],
        sortField: 'lastupdated',
        sortOrder: 'ASC',
        size: 2000,
        lastupdated: '2026-11-20T08:30:00.000+01:00',
      });
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) {
        expect(conforms('TrcItem', item)).toBe('ok');
        expect(typeof item.trcid).toBe('string');
      }
    },
  );

  it('when reading one event, then the detail validates as Event', async () => {
    const item = await client.getItem('events', '3f1b6d2e-8c4a-4e7b-9f10-2a5c7d9e1b34');
    expect(item?.entitytype).toBe('EVENEMENT');
    expect(conforms('Event', item)).toBe('ok');
  });

  it('when reading the dictionary root through the raw typed client, then it validates as DictionaryRoot', async () => {
    const { data, error, response } = await client.GET('/dictionary');
    expect([response.status, error]).toEqual([200, undefined]);
    expect(conforms('DictionaryRoot', data)).toBe('ok');
    expect(data?.resources.length).toBeGreaterThan(0);
  });

  it('when polling assets, then the page validates as AssetPage', async () => {
    const page = await client.listAssets({
      sortField: 'modified',
      sortOrder: 'asc',
      size: 100,
      page: 0,
      lastupdated: '2026-08-01T00:00:00Z',
    });
    expect(conforms('AssetPage', page)).toBe('ok');
    expect(Array.isArray(page.results)).toBe(true);
  });

  it('when syncing events from the static mock, then the sync mirrors them only if the examples are in ascending order, else stops without a mark [SYNC-004]', async () => {
    // Static Prism answers the spec's examples for any query: it cannot honour sortOrder=ASC.
    const examples = await client.listItems('events');
    const stamps = examples.map((i) => Date.parse(i.lastupdated!));
    const ascending = stamps.every((t, i) => i === 0 || t >= stamps[i - 1]!);
    const store = createMemoryStore();
    const run = syncItems(client, 'events', store);
    if (ascending) {
      expect((await run).upserted).toBe(examples.filter((i) => i.wfstatus === 'approved').length);
    } else {
      await expect(run).rejects.toThrow(SyncProtocolError);
      expect(await store.getMark('events')).toBeUndefined();
    }
  });
});
