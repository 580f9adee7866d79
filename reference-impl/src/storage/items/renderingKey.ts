import type { OntologyVersions } from '../dictionary/getAccountOntologyVersions.ts';

// What an item's stored rendering was made with (migration 007): the renderer's version, then the
// owning account and the versions (lastModified, in epoch milliseconds) of its type and property
// ontologies: `<renderer>:<account>|<types>|<properties>`, with empty parts for the base. The
// same key is written by JavaScript (from the versions a rendering used) and computed by SQL
// (from the versions in force now, kept on each organisation by migration 008); a stored body is
// used only when the two are equal.

/** The ontology part of the key of an item no account owns: the base ontologies. */
const BASE_ONTOLOGY_KEY = '||';

/** The ontology part of the key for an owner's versions; null: no owning account (the base). */
export function ontologyKeyOf(versions: OntologyVersions | null): string {
  if (versions === null) return BASE_ONTOLOGY_KEY;
  const ms = (iso: string | null) => (iso === null ? '' : String(Date.parse(iso)));
  return `${versions.accountId}|${ms(versions.types)}|${ms(versions.properties)}`;
}

export function renderingKeyOf(rendererVersion: number, versions: OntologyVersions | null): string {
  return `${rendererVersion}:${ontologyKeyOf(versions)}`;
}

/**
 * SQL: a relation (userorganisation, key) of the key in force now for every organisation an
 * account owns (the renderer's version is the parameter `versionParam`), from the ontology key
 * each organisation keeps (migration 008). An organisation no account owns has none: its key is
 * `unownedRenderingKeySql`.
 */
export function currentRenderingKeysSql(versionParam: string): string {
  return `SELECT userorganisation, ${versionParam}::text || ':' || ontology_key AS key FROM organisations`;
}

/** SQL: the key of an item whose organisation no account owns (the base ontologies). */
export function unownedRenderingKeySql(versionParam: string): string {
  return `(${versionParam}::text || ':${BASE_ONTOLOGY_KEY}')`;
}

/** SQL: the key in force now for the row `items`, looked up per row (for a page of rows). */
export function currentRenderingKeySql(versionParam: string): string {
  return `(${versionParam}::text || ':' || coalesce((SELECT o.ontology_key FROM organisations o WHERE o.userorganisation = items.userorganisation), '${BASE_ONTOLOGY_KEY}'))`;
}
