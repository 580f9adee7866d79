import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { Queryable } from '../storage/db.ts';
import { putOntologyOverride } from '../storage/dictionary/putOntologyOverride.ts';
import { putPropertiesOntology } from '../storage/dictionary/putPropertiesOntology.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { fillItemCategories } from './fillItemCategories.ts';
import { loadBaseOntologies, loadDataOverrides } from './loadData.ts';
import { createOntologyCache } from './ontologyCache.ts';
import type { OntologyBody, PropertyOntology } from '../domain/ontology.ts';

async function newAccount(db: Queryable): Promise<{ accountId: string; organisation: string }> {
  const accountId = `acc-${randomUUID().slice(0, 8)}`;
  const organisation = `${accountId}-org`;
  await db.query('INSERT INTO accounts (id, name) VALUES ($1, $2)', [accountId, accountId]);
  await db.query('INSERT INTO organisations (userorganisation, account_id) VALUES ($1, $2)', [organisation, accountId]);
  return { accountId, organisation };
}

/** The base property ontology with one option renamed. */
function withParkingLabel(label: string): OntologyBody<PropertyOntology> {
  const doc = structuredClone(loadBaseOntologies().properties) as OntologyBody<PropertyOntology>;
  delete doc.lastModified;
  const option = doc.propertyCategories[1]!.properties[0]!.options![0]!;
  option.propertytranslations = [
    { lang: 'nl', text: label },
    { lang: 'en', text: `${label} (en)` },
  ];
  return doc;
}

const parkingItem = {
  types: [{ catid: '1.1.2', isDefault: true }],
  categories: [{ catid: 'p-1101', valueid: 'o-2101' }],
};

describeEachEngine('createOntologyCache', (ctx) => {
  it('when no account is named, then the base ontologies are served', async () => {
    const cache = createOntologyCache(ctx.db);
    const base = await cache.ontologiesForAccount(null);
    expect(base?.source).toEqual({ categorization: 'base', properties: 'base' });
    expect(base?.types).toBe(loadBaseOntologies().types);
  });

  it('when the account does not exist, then the answer is undefined (a 404 for the endpoint) [DEC-DICT-005]', async () => {
    expect(await createOntologyCache(ctx.db).ontologiesForAccount('no-such-account')).toBeUndefined();
  });

  it('when an account has no override, then it is served the base; with one, that one whole [ONTO-015] [DICT-001]', async () => {
    const cache = createOntologyCache(ctx.db);
    const { accountId } = await newAccount(ctx.db);
    expect((await cache.ontologiesForAccount(accountId))?.source).toEqual({
      categorization: 'base',
      properties: 'base',
    });
    await putOntologyOverride(ctx.db, {
      kind: 'types',
      accountId,
      ontology: loadDataOverrides().types.get('utrecht')!,
    });
    const own = await cache.ontologiesForAccount(accountId);
    expect(own?.source).toEqual({ categorization: 'account', properties: 'base' });
    expect(own?.types.lastModified).not.toBe(loadBaseOntologies().types.lastModified);
    const filled = fillItemCategories(
      {
        types: [
          { catid: '2.5.3', isDefault: true },
          { catid: '1.1.2', isDefault: false },
        ],
        categories: [],
      },
      own!.indexes,
      ['nl'],
    );
    expect(filled.types).toEqual([
      { catid: '2.5.3', isDefault: true },
      { catid: '1.1.2', isDefault: false, categoryTranslations: [{ lang: 'nl', label: 'Popmuziek' }] },
    ]);
  });

  it("when an item is read, then the ontology of its owning organisation fills it, not the caller's [ONTO-008] [DICT-007]", async () => {
    const cache = createOntologyCache(ctx.db);
    const caller = await newAccount(ctx.db);
    const owner = await newAccount(ctx.db);
    await putPropertiesOntology(ctx.db, {
      accountId: caller.accountId,
      ontology: withParkingLabel('Parkeren van de lezer'),
    });
    await putPropertiesOntology(ctx.db, {
      accountId: owner.accountId,
      ontology: withParkingLabel('Parkeren van de eigenaar'),
    });
    const byOrg = await cache.ontologiesForOrganisations([owner.organisation, 'organisation-without-account']);
    const filled = fillItemCategories(parkingItem, byOrg.get(owner.organisation)!.indexes, ['nl']);
    expect(filled.categories[0]?.value).toBe('Parkeren van de eigenaar');
    const orphan = fillItemCategories(parkingItem, byOrg.get('organisation-without-account')!.indexes, ['nl']);
    expect(orphan.categories[0]?.value).toBe('Gratis parkeren');
  });

  it('when another instance renames an entry, then this instance shows it on its next read, at once [ONTO-006]', async () => {
    const here = createOntologyCache(ctx.db);
    const there = createOntologyCache(ctx.db);
    const { accountId, organisation } = await newAccount(ctx.db);
    await putPropertiesOntology(ctx.db, { accountId, ontology: withParkingLabel('Oud label') });
    const read = async () =>
      fillItemCategories(
        parkingItem,
        (await here.ontologiesForOrganisations([organisation])).get(organisation)!.indexes,
        ['nl', 'en'],
      );
    expect((await read()).categories[0]?.value).toBe('Oud label');

    await putPropertiesOntology(ctx.db, { accountId, ontology: withParkingLabel('Nieuw label') });
    there.invalidate(accountId);
    const after = await read();
    expect(after.categories[0]?.value).toBe('Nieuw label');
    expect(after.categories[0]?.valueCategoryTranslations).toEqual([
      { lang: 'nl', label: 'Nieuw label' },
      { lang: 'en', label: 'Nieuw label (en)' },
    ]);
  });

  it('when nothing changed, then the same parsed and indexed ontology is reused', async () => {
    const cache = createOntologyCache(ctx.db);
    const { accountId, organisation } = await newAccount(ctx.db);
    await putPropertiesOntology(ctx.db, { accountId, ontology: withParkingLabel('Vast') });
    const first = await cache.ontologiesForAccount(accountId);
    const second = (await cache.ontologiesForOrganisations([organisation])).get(organisation);
    expect(second).toBe(first);
    await putOntologyOverride(ctx.db, { kind: 'types', accountId, ontology: { categorizations: [] } });
    const third = await cache.ontologiesForAccount(accountId);
    expect(third).not.toBe(first);
    expect(third?.properties).toBe(first?.properties);
    expect(third?.indexes.properties).toBe(first?.indexes.properties);
  });

  it('when the cache is invalidated after a local write, then the next read loads the new version', async () => {
    const cache = createOntologyCache(ctx.db);
    const { accountId } = await newAccount(ctx.db);
    await putPropertiesOntology(ctx.db, { accountId, ontology: withParkingLabel('Een') });
    const before = await cache.ontologiesForAccount(accountId);
    const put = await putPropertiesOntology(ctx.db, { accountId, ontology: withParkingLabel('Twee') });
    cache.invalidate(accountId);
    const after = await cache.ontologiesForAccount(accountId);
    expect(after?.properties.lastModified).toBe(put.lastModified);
    expect(after?.properties.lastModified).not.toBe(before?.properties.lastModified);
  });
});
