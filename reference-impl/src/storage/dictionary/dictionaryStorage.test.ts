import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { loadBaseOntologies, loadDataOverrides } from '../../dictionary/loadData.ts';
import type { OntologyBody, PropertyOntology } from '../../domain/ontology.ts';
import type { Queryable } from '../db.ts';
import { DbError } from '../errors.ts';
import { describeEachEngine } from '../../../test/support/storage/testDb.ts';
import { getAccountOntologyVersions } from './getAccountOntologyVersions.ts';
import { getOntologyOverride } from './getOntologyOverride.ts';
import { getOrganisationOntologyVersions } from './getOrganisationOntologyVersions.ts';
import { listUserOrganisations } from './listUserOrganisations.ts';
import { putOntologyOverride } from './putOntologyOverride.ts';
import { putPropertiesOntology } from './putPropertiesOntology.ts';
import { seedOntologyOverrides } from './seedOntologyOverrides.ts';

/** A fresh account with one organisation, unique per test. */
async function newAccount(db: Queryable, name = 'Testaccount'): Promise<{ accountId: string; organisation: string }> {
  const accountId = `acc-${randomUUID().slice(0, 8)}`;
  const organisation = `${accountId}-org`;
  await db.query('INSERT INTO accounts (id, name) VALUES ($1, $2)', [accountId, name]);
  await db.query('INSERT INTO organisations (userorganisation, account_id) VALUES ($1, $2)', [organisation, accountId]);
  return { accountId, organisation };
}

function propertyOntology(label: string): OntologyBody<PropertyOntology> {
  return {
    propertyCategories: [
      {
        id: 'pc-1',
        name: 'Eigen',
        datatype: 'yes',
        propertytranslations: [{ lang: 'nl', text: 'Eigen' }],
        properties: [
          { id: 'p-5001', name: label, datatype: 'yes', propertytranslations: [{ lang: 'nl', text: label }] },
        ],
      },
    ],
  };
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describeEachEngine('dictionary storage', (ctx) => {
  it('when a property ontology is put, then it reads back whole with a server-set lastModified [ONTO-017] [ONTO-010]', async () => {
    const { accountId } = await newAccount(ctx.db);
    const body = { ...propertyOntology('Eigen vlag'), lastModified: '1999-01-01T00:00:00.000Z' };
    const put = await putPropertiesOntology(ctx.db, { accountId, ontology: body });
    expect(put.changed).toBe(true);
    expect(put.lastModified).toMatch(ISO_MS);
    expect(put.lastModified).not.toBe('1999-01-01T00:00:00.000Z');
    expect(await getOntologyOverride(ctx.db, { kind: 'properties', accountId })).toEqual({
      lastModified: put.lastModified,
      propertyCategories: propertyOntology('Eigen vlag').propertyCategories,
    });
    expect(await getOntologyOverride(ctx.db, { kind: 'types', accountId })).toBeNull();
  });

  it('when an ontology is replaced several times within a millisecond, then lastModified strictly advances each time [ONTO-010]', async () => {
    const { accountId } = await newAccount(ctx.db);
    const stamps: string[] = [];
    for (let i = 0; i < 5; i++)
      stamps.push(
        (await putPropertiesOntology(ctx.db, { accountId, ontology: propertyOntology(`Versie ${i}`) })).lastModified,
      );
    for (let i = 1; i < stamps.length; i++) expect(Date.parse(stamps[i]!)).toBeGreaterThan(Date.parse(stamps[i - 1]!));
    expect(
      (await getOntologyOverride(ctx.db, { kind: 'properties', accountId }))?.propertyCategories[0]?.properties[0]
        ?.name,
    ).toBe('Versie 4');
  });

  it('when the same ontology is put again, then nothing changes and lastModified stays [ONTO-010]', async () => {
    const { accountId } = await newAccount(ctx.db);
    const first = await putPropertiesOntology(ctx.db, { accountId, ontology: propertyOntology('Gelijk') });
    const again = await putPropertiesOntology(ctx.db, { accountId, ontology: propertyOntology('Gelijk') });
    expect(again).toEqual({ lastModified: first.lastModified, changed: false });
  });

  it('when the account does not exist, then the write fails on the foreign key', async () => {
    const error = await putPropertiesOntology(ctx.db, {
      accountId: `missing-${randomUUID().slice(0, 8)}`,
      ontology: propertyOntology('x'),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DbError);
    expect((error as DbError).code).toBe('23503');
  });

  it('when organisations are listed, then each names its account and which ontologies it uses [DICT-005] [DEC-DICT-002]', async () => {
    const plain = await newAccount(ctx.db, 'Zonder eigen ontologie');
    const own = await newAccount(ctx.db, 'Met eigen eigenschappen');
    await putPropertiesOntology(ctx.db, { accountId: own.accountId, ontology: propertyOntology('x') });
    const listed = await listUserOrganisations(ctx.db);
    expect(listed.find((e) => e.userorganisation === plain.organisation)).toEqual({
      userorganisation: plain.organisation,
      accountId: plain.accountId,
      accountName: 'Zonder eigen ontologie',
      ontology: { categorization: 'base', properties: 'base' },
    });
    expect(listed.find((e) => e.userorganisation === own.organisation)?.ontology).toEqual({
      categorization: 'base',
      properties: 'account',
    });
  });

  it('when versions are read, then they name the owner and the lastModified of its own ontologies', async () => {
    const { accountId, organisation } = await newAccount(ctx.db);
    expect(await getAccountOntologyVersions(ctx.db, { accountId })).toEqual({
      accountId,
      types: null,
      properties: null,
    });
    const put = await putOntologyOverride(ctx.db, { kind: 'types', accountId, ontology: { categorizations: [] } });
    const byOrg = await getOrganisationOntologyVersions(ctx.db, {
      userorganisations: [organisation, 'nobody-owns-this'],
    });
    expect([...byOrg.entries()]).toEqual([[organisation, { accountId, types: put.lastModified, properties: null }]]);
    expect(await getAccountOntologyVersions(ctx.db, { accountId: 'no-such-account' })).toBeUndefined();
  });

  it('when the data overrides are seeded, then type ontologies follow the data and property examples never overwrite [ONTO-015]', async () => {
    const typesAccount = await newAccount(ctx.db);
    const propertiesAccount = await newAccount(ctx.db);
    const data = loadDataOverrides();
    const overrides = {
      types: new Map([
        [typesAccount.accountId, data.types.get('utrecht')!],
        ['not-an-account', data.types.get('utrecht')!],
      ]),
      properties: new Map([[propertiesAccount.accountId, data.properties.get('zeeland')!]]),
    };
    expect(await seedOntologyOverrides(ctx.db, overrides)).toEqual({
      written: [`${typesAccount.accountId}:types`, `${propertiesAccount.accountId}:properties`],
      skipped: ['not-an-account'],
    });
    expect(await seedOntologyOverrides(ctx.db, overrides)).toEqual({ written: [], skipped: ['not-an-account'] });

    await putPropertiesOntology(ctx.db, {
      accountId: propertiesAccount.accountId,
      ontology: propertyOntology('Door de beheerder'),
    });
    const changedTypes = structuredClone(data.types.get('utrecht')!);
    changedTypes.categorizations[0]!.categorization = 'Activiteiten';
    const reseeded = await seedOntologyOverrides(ctx.db, {
      types: new Map([[typesAccount.accountId, changedTypes]]),
      properties: overrides.properties,
    });
    expect(reseeded.written).toEqual([`${typesAccount.accountId}:types`]);
    expect(
      (await getOntologyOverride(ctx.db, { kind: 'types', accountId: typesAccount.accountId }))?.categorizations[0]
        ?.categorization,
    ).toBe('Activiteiten');
    expect(
      (await getOntologyOverride(ctx.db, { kind: 'properties', accountId: propertiesAccount.accountId }))
        ?.propertyCategories[0]?.properties[0]?.name,
    ).toBe('Door de beheerder');
  });

  it('when a stored type ontology is read, then it equals the data it was seeded from', async () => {
    const { accountId } = await newAccount(ctx.db);
    const utrecht = loadDataOverrides().types.get('utrecht')!;
    await seedOntologyOverrides(ctx.db, { types: new Map([[accountId, utrecht]]), properties: new Map() });
    const stored = await getOntologyOverride(ctx.db, { kind: 'types', accountId });
    expect(stored).toEqual({ lastModified: expect.stringMatching(ISO_MS), ...utrecht });
    expect(stored?.categorizations).not.toEqual(loadBaseOntologies().types.categorizations);
  });
});
