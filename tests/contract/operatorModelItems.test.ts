// Items as integrators meet them, held against the operator's model (operator-model/model.yaml):
// every item the sandbox answers with its demo data, and every item example of the spec (what the
// mock serves), must parse as the operator's response model would parse it, except where
// deviations.yaml says why we differ.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryFileStore } from '../../reference-impl/src/assets/memoryFileStore.ts';
import { createOntologyCache } from '../../reference-impl/src/dictionary/ontologyCache.ts';
import { seedDemoData, type SeedResult } from '../../reference-impl/src/seed/seedDemoData.ts';
import { ignoreItemChanges } from '../../reference-impl/src/webhooks/itemChange.ts';
import { client } from '../../reference-impl/test/support/items/itemsHarness.ts';
import { openTestDb, type TestDb } from '../../reference-impl/test/support/storage/testDb.ts';
import { startTestApp, type TestApp } from '../../reference-impl/test/support/testApp.ts';
import { covers, deviations, model } from './operator-model/load.ts';
import { valueProblems } from './operator-model/valueProblems.ts';

const COLLECTIONS = ['events', 'locations', 'routes', 'venues', 'eventgroups'] as const;
const STATUSES = 'readyforvalidation,approved,rejected,archived,deleted';
const skip = (modelPath: string) => deviations.some((d) => covers(d, modelPath));

type Item = Record<string, unknown>;
const isItem = (value: unknown): value is Item =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  typeof (value as Item).entitytype === 'string';

/** Problems of one item, each as `trcid: path (pointer): message`. */
function problemsOf(item: Item): string[] {
  const root = item.entitytype === 'EVENTGROUP' || item.entitytype === 'EVENEMENTGROEP' ? 'TRCItemGroup' : 'TRCItem';
  return valueProblems(model.objects, root, item, root, skip).map(
    (p) => `${String(item.trcid ?? '(draft)')}: ${p.path} (${p.pointer}): ${p.message}`,
  );
}

describe('items the sandbox answers, against the operator model', () => {
  let db: TestDb;
  let app: TestApp;
  let seed: SeedResult;
  beforeAll(async () => {
    db = await openTestDb('pglite');
    const assetStore = createMemoryFileStore();
    seed = await seedDemoData(
      db.db,
      { recordItemChange: ignoreItemChanges, ontologies: createOntologyCache(db.db) },
      { assetStore },
    );
    app = await startTestApp(db.db, { env: { RATE_LIMIT_ENABLED: 'false' }, deps: { assetStore } });
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  it('when every demo item of every collection is listed and read, then each has the model shape for every field the model defines', async () => {
    const superAdmin = client(app.baseUrl, seed.tokens.find((t) => t.label === 'super admin')!.token);
    const problems: string[] = [];
    let items = 0;
    for (const collection of COLLECTIONS) {
      const list = await superAdmin.get<Item[]>(`/${collection}?wfstatus=${STATUSES}&size=1000`);
      expect(list.status).toBe(200);
      for (const item of list.body) {
        items++;
        problems.push(...problemsOf(item));
        const detail = await superAdmin.get<Item>(`/${collection}/${String(item.id)}`);
        if (detail.status === 200) problems.push(...problemsOf(detail.body));
      }
    }
    expect(items).toBeGreaterThan(20);
    expect([...new Set(problems)]).toEqual([]);
  });
});

describe('item examples of the spec (what the mock serves), against the operator model', () => {
  it('when every item example of a response is read, then each has the model shape for every field the model defines', () => {
    const spec = JSON.parse(
      fs.readFileSync(path.join(import.meta.dirname, '../../generated/openapi.json'), 'utf8'),
    ) as {
      paths: Record<
        string,
        Record<
          string,
          { responses?: Record<string, { content?: Record<string, { examples?: Record<string, { $ref?: string }> }> }> }
        >
      >;
      components: { examples: Record<string, { value?: unknown }> };
    };
    // Examples of answers only: request examples show what a client sends, old spellings among them.
    const names = new Set(
      Object.values(spec.paths)
        .flatMap((item) => Object.values(item))
        .flatMap((operation) => Object.values(operation.responses ?? {}))
        .flatMap((response) => Object.values(response.content ?? {}))
        .flatMap((media) => Object.values(media.examples ?? {}))
        .map((example) => example.$ref?.replace('#/components/examples/', ''))
        .filter((name): name is string => name !== undefined),
    );
    const problems: string[] = [];
    let items = 0;
    for (const name of names) {
      for (const item of [spec.components.examples[name]?.value].flat().filter(isItem)) {
        items++;
        problems.push(...problemsOf(item).map((p) => `${name}: ${p}`));
      }
    }
    expect(items).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });
});
