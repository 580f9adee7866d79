import type { Queryable } from '../db.ts';
import { isoTimestamp } from './ontologyTables.ts';

/** Which ontologies an account uses: the `lastModified` of its own, or null for the base. */
export interface OntologyVersions {
  accountId: string;
  types: string | null;
  properties: string | null;
}

interface VersionRow {
  account_id: string;
  types_modified: Date | null;
  properties_modified: Date | null;
}

export const toVersions = (row: VersionRow): OntologyVersions => ({
  accountId: row.account_id,
  types: row.types_modified === null ? null : isoTimestamp(row.types_modified),
  properties: row.properties_modified === null ? null : isoTimestamp(row.properties_modified),
});

/** One small query per request: the versions in force for an account; undefined when it does not exist. */
export async function getAccountOntologyVersions(
  db: Queryable,
  params: { accountId: string },
): Promise<OntologyVersions | undefined> {
  const { rows } = await db.query<VersionRow>(
    `SELECT a.id AS account_id, t.last_modified AS types_modified, p.last_modified AS properties_modified
       FROM accounts a
       LEFT JOIN account_type_ontologies t ON t.account_id = a.id
       LEFT JOIN account_property_ontologies p ON p.account_id = a.id
      WHERE a.id = $1`,
    [params.accountId],
  );
  return rows[0] ? toVersions(rows[0]) : undefined;
}
