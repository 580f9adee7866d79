import type { Queryable } from '../storage/db.ts';
import { getAccountOntologyVersions } from '../storage/dictionary/getAccountOntologyVersions.ts';
import type { OntologyVersions } from '../storage/dictionary/getAccountOntologyVersions.ts';
import { getOntologyOverride } from '../storage/dictionary/getOntologyOverride.ts';
import { getOrganisationOntologyVersions } from '../storage/dictionary/getOrganisationOntologyVersions.ts';
import { chooseOntologies, type OntologyPair } from './chooseOntologies.ts';
import { indexOntologies, type OntologyIndexes } from './indexes.ts';
import { loadBaseOntologies } from './loadData.ts';
import type { OntologySource } from '../domain/ontology.ts';

// @implements ONTO-006
// The ontologies in force for an account, parsed and indexed once per version.
//
// Why a version check on every request: several instances may share one PostgreSQL, and an
// override written through one must show through all AT ONCE (ONTO-006). Every write advances the
// row's last_modified in the same commit, so reading the versions (one small primary-key query,
// joined for all owners of a page of items) and comparing them with the cached ones is exact;
// only a changed ontology is read again. It needs no listener connection (LISTEN/NOTIFY) and works
// the same on PGlite and PostgreSQL. `invalidate` only frees memory early after a local write.

export interface AccountOntologies extends OntologyPair {
  /** The account, or null for the base ontologies of a caller or owner without one. */
  accountId: string | null;
  /** The versions these ontologies are of; null for the base ontologies of no account. */
  versions: OntologyVersions | null;
  indexes: OntologyIndexes;
  source: { categorization: OntologySource; properties: OntologySource };
}

export interface OntologyCache {
  /** The ontologies of `accountId` (null: the base); undefined when the account does not exist. */
  ontologiesForAccount(accountId: string | null): Promise<AccountOntologies | undefined>;
  /**
   * The ontologies of the account owning each userorganisation (ONTO-008), in one round trip for
   * the whole set; an organisation no account claims gets the base ontologies.
   */
  ontologiesForOrganisations(userorganisations: Iterable<string>): Promise<Map<string, AccountOntologies>>;
  /** Forget an account's entry (after writing its ontology through this instance). */
  invalidate(accountId: string): void;
  /**
   * The `lastModified` of the base ontologies, `<types>|<properties>`: they ship with the service,
   * so no rendering key holds them, but an item's labels can come from them (an item's ETag does).
   */
  readonly baseKey: string;
}

export function createOntologyCache(db: Queryable, options: { base?: OntologyPair } = {}): OntologyCache {
  const base = options.base ?? loadBaseOntologies();
  const baseIndexes = indexOntologies(base);
  const baseValue: AccountOntologies = {
    accountId: null,
    versions: null,
    ...base,
    indexes: baseIndexes,
    source: { categorization: 'base', properties: 'base' },
  };
  const entries = new Map<string, AccountOntologies>(); // by account, each with the versions it was read at

  async function resolve(versions: OntologyVersions): Promise<AccountOntologies> {
    const { accountId } = versions;
    const cached = entries.get(accountId);
    if (cached && cached.versions!.types === versions.types && cached.versions!.properties === versions.properties) {
      return cached;
    }
    // Reuse whichever half is still current; read the other with the version it carries, so a
    // write landing between the two queries is simply picked up on the next request.
    const types =
      versions.types === null
        ? null
        : cached?.versions!.types === versions.types
          ? cached.types
          : await getOntologyOverride(db, { kind: 'types', accountId });
    const properties =
      versions.properties === null
        ? null
        : cached?.versions!.properties === versions.properties
          ? cached.properties
          : await getOntologyOverride(db, { kind: 'properties', accountId });
    const chosen = chooseOntologies(base, { types, properties });
    const used: OntologyVersions = {
      accountId,
      types: types?.lastModified ?? null,
      properties: properties?.lastModified ?? null,
    };
    const value: AccountOntologies = { accountId, versions: used, ...chosen, indexes: indexOntologies(chosen) };
    entries.set(accountId, value);
    return value;
  }

  return {
    async ontologiesForAccount(accountId) {
      if (accountId === null) return baseValue;
      const versions = await getAccountOntologyVersions(db, { accountId });
      return versions && resolve(versions);
    },

    async ontologiesForOrganisations(userorganisations) {
      const wanted = [...new Set(userorganisations)];
      const owners = await getOrganisationOntologyVersions(db, { userorganisations: wanted });
      const byAccount = new Map<string, Promise<AccountOntologies>>();
      for (const versions of owners.values()) {
        if (!byAccount.has(versions.accountId)) byAccount.set(versions.accountId, resolve(versions));
      }
      const answer = new Map<string, AccountOntologies>();
      for (const organisation of wanted) {
        const owner = owners.get(organisation);
        answer.set(organisation, owner ? await byAccount.get(owner.accountId)! : baseValue);
      }
      return answer;
    },

    invalidate(accountId) {
      entries.delete(accountId);
    },

    baseKey: `${base.types.lastModified}|${base.properties.lastModified}`,
  };
}
