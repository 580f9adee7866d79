import { expect, it } from 'vitest';
import { createTestAccount } from '../../../test/support/fixtures.ts';
import { ontologyKeyOf } from '../items/renderingKey.ts';
import { describeEachEngine, type EngineContext } from '../../../test/support/storage/testDb.ts';
import { getAccountOntologyVersions } from './getAccountOntologyVersions.ts';
import { putOntologyOverride } from './putOntologyOverride.ts';

// Migration 008 keeps each organisation's ontology key beside it; the list trusts it to decide
// whether a stored rendering is current, so it must always equal the key JavaScript writes from
// the versions in force.

const types = (name: string) => ({ categorizations: [{ cnetID: '1', categorization: name }] });
const properties = (name: string) => ({ propertyCategories: [{ id: 'pc-1', name, datatype: 'yes' }] });

/** The keys stored for an account's organisations, and the check that they are the key in force. */
function keyChecks(ctx: EngineContext) {
  const storedKeys = async (accountId: string) => {
    const { rows } = await ctx.db.query<{ userorganisation: string; ontology_key: string }>(
      'SELECT userorganisation, ontology_key FROM organisations WHERE account_id = $1 ORDER BY userorganisation',
      [accountId],
    );
    return rows;
  };
  const expectKeysInForce = async (accountId: string, organisations: readonly string[]) => {
    const key = ontologyKeyOf((await getAccountOntologyVersions(ctx.db, { accountId }))!);
    expect(await storedKeys(accountId)).toEqual(
      organisations.map((userorganisation) => ({ userorganisation, ontology_key: key })),
    );
  };
  return { storedKeys, expectKeysInForce };
}

describeEachEngine('organisation ontology keys (migration 008)', (ctx) => {
  const { storedKeys, expectKeysInForce } = keyChecks(ctx);

  it('when ontologies of an account are written, replaced and removed, then its organisations keep the key in force, and other accounts keep theirs', async () => {
    await createTestAccount(ctx.db, { accountId: 'keys-a', organisations: ['keys-a1', 'keys-a2'] });
    await createTestAccount(ctx.db, { accountId: 'keys-b', organisations: ['keys-b1'] });
    await expectKeysInForce('keys-a', ['keys-a1', 'keys-a2']);
    expect((await storedKeys('keys-a'))[0]!.ontology_key).toBe('keys-a||');

    await putOntologyOverride(ctx.db, { kind: 'properties', accountId: 'keys-a', ontology: properties('one') });
    await expectKeysInForce('keys-a', ['keys-a1', 'keys-a2']);
    expect((await storedKeys('keys-a'))[0]!.ontology_key).toMatch(/^keys-a\|\|\d{13}$/);
    await putOntologyOverride(ctx.db, { kind: 'types', accountId: 'keys-a', ontology: types('one') });
    await putOntologyOverride(ctx.db, { kind: 'properties', accountId: 'keys-a', ontology: properties('two') });
    await expectKeysInForce('keys-a', ['keys-a1', 'keys-a2']);
    expect((await storedKeys('keys-a'))[0]!.ontology_key).toMatch(/^keys-a\|\d{13}\|\d{13}$/);

    await ctx.db.query('DELETE FROM account_type_ontologies WHERE account_id = $1', ['keys-a']);
    await expectKeysInForce('keys-a', ['keys-a1', 'keys-a2']);
    expect(await storedKeys('keys-b')).toEqual([{ userorganisation: 'keys-b1', ontology_key: 'keys-b||' }]);
  });

  it("when an organisation is added to an account or moves to another, then it takes that account's key", async () => {
    await createTestAccount(ctx.db, { accountId: 'keys-c', organisations: ['keys-c1'] });
    await createTestAccount(ctx.db, { accountId: 'keys-d', organisations: [] });
    await putOntologyOverride(ctx.db, { kind: 'properties', accountId: 'keys-d', ontology: properties('d') });
    await createTestAccount(ctx.db, { accountId: 'keys-d', organisations: ['keys-d1'] });
    await expectKeysInForce('keys-d', ['keys-d1']);

    await ctx.db.query('UPDATE organisations SET account_id = $1 WHERE userorganisation = $2', ['keys-d', 'keys-c1']);
    await expectKeysInForce('keys-d', ['keys-c1', 'keys-d1']);
  });
});

// PGlite runs one transaction at a time: only PostgreSQL has writers side by side.
describeEachEngine(
  'organisation ontology keys under concurrent writers (migration 008)',
  (ctx) => {
    const { storedKeys, expectKeysInForce } = keyChecks(ctx);

    it("when two transactions change one account's type and property ontologies side by side, then the key holds both changes", async () => {
      await createTestAccount(ctx.db, { accountId: 'keys-e', organisations: ['keys-e1'] });
      let releaseFirst!: () => void;
      const firstMayCommit = new Promise<void>((resolve) => {
        releaseFirst = resolve;
      });
      let firstWrote!: () => void;
      const firstHasWritten = new Promise<void>((resolve) => {
        firstWrote = resolve;
      });
      const first = ctx.db.transaction(async (tx) => {
        await putOntologyOverride(tx, { kind: 'types', accountId: 'keys-e', ontology: types('e') });
        firstWrote();
        await firstMayCommit;
      });
      await firstHasWritten;
      // The second waits for the first's lock; without it, it would write a key from a snapshot
      // taken before the first committed, without the new type ontology.
      const second = ctx.db.transaction((tx) =>
        putOntologyOverride(tx, { kind: 'properties', accountId: 'keys-e', ontology: properties('e') }),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      releaseFirst();
      await Promise.all([first, second]);
      await expectKeysInForce('keys-e', ['keys-e1']);
      expect((await storedKeys('keys-e'))[0]!.ontology_key).toMatch(/^keys-e\|\d{13}\|\d{13}$/);
    });
  },
  ['postgres'],
);
