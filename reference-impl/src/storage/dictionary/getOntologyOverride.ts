import type { Queryable } from '../db.ts';
import type { OntologyKind, PropertyOntology, TypeOntology } from '../../domain/ontology.ts';
import { isoTimestamp, ONTOLOGY_TABLE } from './ontologyTables.ts';

export type OntologyOf<K extends OntologyKind> = K extends 'types' ? TypeOntology : PropertyOntology;

/** The account's own ontology of `kind` with its `lastModified`, or null when it uses the base. */
export async function getOntologyOverride<K extends OntologyKind>(
  db: Queryable,
  params: { kind: K; accountId: string },
): Promise<OntologyOf<K> | null> {
  const { rows } = await db.query<{ doc: Record<string, unknown>; last_modified: Date }>(
    `SELECT doc, last_modified FROM ${ONTOLOGY_TABLE[params.kind]} WHERE account_id = $1`,
    [params.accountId],
  );
  const row = rows[0];
  if (!row) return null;
  return { lastModified: isoTimestamp(row.last_modified), ...row.doc } as OntologyOf<K>;
}
