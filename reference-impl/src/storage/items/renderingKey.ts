import type { OntologyVersions } from '../dictionary/getAccountOntologyVersions.ts';

// What an item's stored rendering was made with (migration 007): the renderer's version, then the
// owning account and the versions (lastModified, in epoch milliseconds) of its type and property
// ontologies: `<renderer>:<account>|<types>|<properties>`, with empty parts for the base. The
// same key is written by JavaScript (from the versions a rendering used) and computed by SQL
// (from the versions in force now); a stored body is used only when the two are equal.

/** The ontology part of the key for an owner's versions; null: no owning account (the base). */
export function ontologyKeyOf(versions: OntologyVersions | null): string {
  if (versions === null) return '||';
  const ms = (iso: string | null) => (iso === null ? '' : String(Date.parse(iso)));
  return `${versions.accountId}|${ms(versions.types)}|${ms(versions.properties)}`;
}

export function renderingKeyOf(rendererVersion: number, versions: OntologyVersions | null): string {
  return `${rendererVersion}:${ontologyKeyOf(versions)}`;
}

/**
 * SQL: a relation (userorganisation, key) of the key in force now for every organisation an
 * account owns (the renderer's version is the parameter `versionParam`). An organisation no
 * account owns has none: its key is `UNOWNED_KEY_SQL`. Ontology lastModified values have
 * millisecond precision (migration 002).
 */
export function currentRenderingKeysSql(versionParam: string): string {
  const ms = (column: string) => `coalesce(((extract(epoch FROM ${column}) * 1000)::bigint)::text, '')`;
  return `SELECT o.userorganisation,
                 ${versionParam}::text || ':' || o.account_id || '|' || ${ms('t.last_modified')} || '|' || ${ms('p.last_modified')} AS key
            FROM organisations o
            LEFT JOIN account_type_ontologies t ON t.account_id = o.account_id
            LEFT JOIN account_property_ontologies p ON p.account_id = o.account_id`;
}

/** SQL: the key of an item whose organisation no account owns (the base ontologies). */
export function unownedRenderingKeySql(versionParam: string): string {
  return `(${versionParam}::text || ':||')`;
}

/** SQL: the key in force now for the row `items`, looked up per row (for a page of rows). */
export function currentRenderingKeySql(versionParam: string): string {
  return `coalesce((SELECT k.key FROM (${currentRenderingKeysSql(versionParam)}) k WHERE k.userorganisation = items.userorganisation),
                   ${unownedRenderingKeySql(versionParam)})`;
}
