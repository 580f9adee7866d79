import { withCategoryTranslations } from '../dictionary/withCategoryTranslations.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBaseOntologies, loadDataOverrides } from '../dictionary/loadData.ts';
import type { TypeNode } from '../domain/ontology.ts';
import { client, newTestAccount, superAdminToken, type TestAccount } from '../../test/support/items/itemsHarness.ts';
import { responseProblems } from '../../test/support/items/responseSchemas.ts';
import { seedOntologyOverrides } from '../storage/dictionary/seedOntologyOverrides.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { createTestToken } from '../../test/support/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/support/testApp.ts';

function ontology(label: string, extra: Record<string, unknown> = {}) {
  return {
    lastModified: '2001-01-01T00:00:00.000Z',
    propertyCategories: [
      {
        id: 'pc-1',
        name: 'Eigen',
        datatype: 'yes',
        propertytranslations: [{ lang: 'nl', text: 'Eigen' }],
        properties: [
          { id: 'p-1', name: label, datatype: 'yesno', propertytranslations: [{ lang: 'nl', text: label }], ...extra },
        ],
      },
    ],
  };
}

function cnetIds(nodes: readonly TypeNode[] | undefined): string[] {
  return (nodes ?? []).flatMap((n) => [n.cnetID, ...cnetIds(n.child)]);
}

describeEachEngine('dictionary', (ctx) => {
  let app: TestApp;
  let account: TestAccount;
  beforeAll(async () => {
    app = await startTestApp(ctx.db, { env: { RATE_LIMIT_ENABLED: 'false' } });
    account = await newTestAccount(ctx.db);
  });
  afterAll(() => app.close());

  describe('GET /dictionary', () => {
    it('when the root is read, then it links the three dictionary resources with absolute URLs [DICT-006] [DEC-DICT-001] [DEC-DICT-012]', async () => {
      const answer = await client(app.baseUrl, account.live).get('/dictionary');
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        resources: ['categorizationOntology', 'propertiesOntology', 'userorganisations'].map((name) => ({
          name,
          href: `${app.config.publicBaseUrl}/dictionary/${name}`,
        })),
      });
      expect(responseProblems('getDictionary', 200, answer.body)).toEqual([]);
    });

    it('when no token is sent, then 401 [AUTH-002]', async () => {
      expect((await client(app.baseUrl).get('/dictionary')).status).toBe(401);
    });
  });

  describe('GET /dictionary/categorizationOntology', () => {
    it('when read without accountId by an account without override, then the base without deprecated nodes [DICT-002] [ONTO-011] [ONTO-012] [AUTH-008] [DEC-DICT-010]', async () => {
      const answer = await client(app.baseUrl, account.live).get('/dictionary/categorizationOntology');
      expect(answer.status).toBe(200);
      expect(responseProblems('getCategorizationOntology', 200, answer.body)).toEqual([]);
      const base = loadBaseOntologies().types;
      expect(answer.body.lastModified).toBe(base.lastModified);
      const ids = cnetIds(answer.body.categorizations);
      expect(ids).toContain('1.1.1');
      for (const deprecated of ['1.10', '2.3.5', '3.5']) expect(ids).not.toContain(deprecated);
      expect(ids.some((id) => id.startsWith('1.10.'))).toBe(false);
    });

    it('when includeDeprecated=true, then deprecated nodes are included [DEC-DICT-004] [ONTO-012]', async () => {
      const answer = await client(app.baseUrl, account.live).get(
        '/dictionary/categorizationOntology?includeDeprecated=true',
      );
      expect(cnetIds(answer.body.categorizations)).toEqual(expect.arrayContaining(['1.10', '2.3.5', '3.5']));
      // Labels also under categoryTranslations (DEC-DICT-030).
      expect(answer.body).toEqual(withCategoryTranslations(loadBaseOntologies().types));
    });

    it('when accountId names an account with its own type ontology, then that; an unknown account is 404; a malformed one 400 [DICT-001] [ONTO-015] [DEC-DICT-005]', async () => {
      const owner = await newTestAccount(ctx.db);
      const utrecht = loadDataOverrides().types.get('utrecht')!;
      await seedOntologyOverrides(ctx.db, { types: new Map([[owner.accountId, utrecht]]), properties: new Map() });
      const api = client(app.baseUrl, account.live);
      const own = await api.get(
        `/dictionary/categorizationOntology?accountId=${owner.accountId}&includeDeprecated=true`,
      );
      expect(own.status).toBe(200);
      expect(own.body.categorizations).toEqual(
        withCategoryTranslations({ lastModified: '', ...utrecht }).categorizations,
      );
      expect(own.body.lastModified).not.toBe(loadBaseOntologies().types.lastModified);
      // The owner's own token without accountId gets the same.
      expect(
        (await client(app.baseUrl, owner.live).get('/dictionary/categorizationOntology?includeDeprecated=true')).body,
      ).toEqual(own.body);
      const unknown = await api.get('/dictionary/categorizationOntology?accountId=no-such-account');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ status: 404, error: 'Not Found', message: 'No account with id no-such-account' });
      expect((await api.get('/dictionary/categorizationOntology?accountId=amsterdam%20centrum')).status).toBe(400);
      expect((await api.get('/dictionary/categorizationOntology?includeDeprecated=maybe')).status).toBe(400);
    });
  });

  describe('GET /dictionary/propertiesOntology', () => {
    it("when read without accountId, then the caller's account ontology, else the base, with deprecated entries [DICT-003] [DICT-002] [ONTO-013] [DEC-DICT-009]", async () => {
      const answer = await client(app.baseUrl, account.live).get('/dictionary/propertiesOntology');
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(loadBaseOntologies().properties);
      expect(responseProblems('getPropertiesOntology', 200, answer.body)).toEqual([]);
      expect(JSON.stringify(answer.body)).toContain('"deprecated":true');
    });
  });

  describe('PUT /dictionary/propertiesOntology', () => {
    it("when an admin replaces its account's ontology, then the stored one comes back with a new lastModified and GET answers it [DICT-004] [ONTO-017] [ONTO-010] [ONTO-016] [DEC-DICT-011]", async () => {
      const owner = await newTestAccount(ctx.db);
      const admin = client(app.baseUrl, owner.admin);
      const put = await admin.put(
        `/dictionary/propertiesOntology?accountId=${owner.accountId}`,
        ontology('Eerste', { colour: 'red' }),
      );
      expect(put.status).toBe(200);
      expect(responseProblems('replacePropertiesOntology', 200, put.body)).toEqual([]);
      expect(put.body.lastModified).not.toBe('2001-01-01T00:00:00.000Z');
      expect(put.body.propertyCategories[0].properties[0]).toEqual({
        id: 'p-1',
        name: 'Eerste',
        datatype: 'yesno',
        propertytranslations: [{ lang: 'nl', text: 'Eerste' }],
      });
      const read = await client(app.baseUrl, owner.live).get('/dictionary/propertiesOntology');
      expect(read.body).toEqual(put.body);
      const again = await admin.put(`/dictionary/propertiesOntology?accountId=${owner.accountId}`, ontology('Tweede'));
      expect(Date.parse(again.body.lastModified)).toBeGreaterThan(Date.parse(put.body.lastModified));
      const listed = (await admin.get('/dictionary/userorganisations')).body.find(
        (o: any) => o.accountId === owner.accountId,
      );
      expect(listed.ontology).toEqual({ categorization: 'base', properties: 'account' });
    });

    it('when the caller is no admin, then 403; an admin of another account, then 403; a super admin, then any account [AUTH-007] [DEC-DICT-005] [DEC-AUTH-005]', async () => {
      const owner = await newTestAccount(ctx.db);
      const other = await newTestAccount(ctx.db);
      const path = `/dictionary/propertiesOntology?accountId=${owner.accountId}`;
      const user = await client(app.baseUrl, owner.full).put(path, ontology('x'));
      expect(user.status).toBe(403);
      expect(user.body.message).toBe(
        'This operation requires ROLE_ADMIN or ROLE_SUPER_ADMIN (token has: ROLE_EXTERNAL_USER)',
      );
      const foreign = await client(app.baseUrl, other.admin).put(path, ontology('x'));
      expect(foreign.status).toBe(403);
      expect(foreign.body.message).toBe(
        `ROLE_ADMIN of account ${other.accountId} cannot write the ontology of account ${owner.accountId}`,
      );
      const superAdmin = client(app.baseUrl, await superAdminToken(ctx.db, other.accountId));
      expect((await superAdmin.put(path, ontology('Van de beheerder'))).status).toBe(200);
      const unknown = await superAdmin.put('/dictionary/propertiesOntology?accountId=no-such-account', ontology('x'));
      expect(unknown.status).toBe(404);
      expect((await client(app.baseUrl).put(path, ontology('x'))).status).toBe(401);
    });

    it('when the body breaks the ontology rules or the schema, or accountId is missing, then 400 with details [DEC-DICT-011]', async () => {
      const owner = await newTestAccount(ctx.db);
      const admin = client(app.baseUrl, owner.admin);
      const path = `/dictionary/propertiesOntology?accountId=${owner.accountId}`;
      const duplicate = ontology('x');
      duplicate.propertyCategories[0]!.properties.push({ ...duplicate.propertyCategories[0]!.properties[0]! });
      const dup = await admin.put(path, duplicate);
      expect(dup.status).toBe(400);
      expect(dup.body.details[0].pointer).toBe('/propertyCategories/0/properties/1/id');
      const choice = await admin.put(path, ontology('x', { datatype: 'choice' }));
      expect(choice.status).toBe(400);
      expect(choice.body.message).toContain('at least one option');
      expect(choice.body.details[0].pointer).toBe('/propertyCategories/0/properties/0');
      expect((await admin.put(path, { propertyCategories: [{ id: 'pc-1' }] })).status).toBe(400);
      expect((await admin.put('/dictionary/propertiesOntology', ontology('x'))).status).toBe(400);
      // Nothing was stored.
      expect((await client(app.baseUrl, owner.live).get('/dictionary/propertiesOntology')).body).toEqual(
        loadBaseOntologies().properties,
      );
    });
  });

  describe('GET /dictionary/userorganisations', () => {
    it('when listed by any valid token, then every organisation with its account and ontologies, sorted [DICT-005] [DICT-007] [DEC-DICT-002] [DEC-DICT-012]', async () => {
      const owner = await newTestAccount(ctx.db, { organisations: 2 });
      const token = (await createTestToken(ctx.db, { accountId: account.accountId, organisations: [] })).token;
      const answer = await client(app.baseUrl, token).get('/dictionary/userorganisations');
      expect(answer.status).toBe(200);
      expect(responseProblems('listUserOrganisations', 200, answer.body)).toEqual([]);
      const names = answer.body.map((o: any) => o.userorganisation);
      expect(names).toEqual([...names].sort());
      expect(answer.body.filter((o: any) => o.accountId === owner.accountId)).toEqual(
        owner.organisations.map((userorganisation) => ({
          userorganisation,
          accountId: owner.accountId,
          accountName: owner.accountId,
          ontology: { categorization: 'base', properties: 'base' },
        })),
      );
    });
  });
});
