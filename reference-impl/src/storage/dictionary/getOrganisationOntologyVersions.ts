import type { Queryable } from '../db.ts';
import { toVersions, type OntologyVersions } from './getAccountOntologyVersions.ts';

/**
 * The owning account of each given userorganisation and the versions of its ontologies, in one
 * query (ONTO-008: items are filled in with their owner's ontology). Organisations that are not
 * known are absent from the answer.
 */
export async function getOrganisationOntologyVersions(
  db: Queryable,
  params: { userorganisations: readonly string[] },
): Promise<Map<string, OntologyVersions>> {
  if (params.userorganisations.length === 0) return new Map();
  const { rows } = await db.query<{
    userorganisation: string;
    account_id: string;
    types_modified: Date | null;
    properties_modified: Date | null;
  }>(
    `SELECT o.userorganisation, o.account_id, t.last_modified AS types_modified, p.last_modified AS properties_modified
       FROM organisations o
       LEFT JOIN account_type_ontologies t ON t.account_id = o.account_id
       LEFT JOIN account_property_ontologies p ON p.account_id = o.account_id
      WHERE o.userorganisation = ANY($1::text[])`,
    [[...params.userorganisations]],
  );
  return new Map(rows.map((row) => [row.userorganisation, toVersions(row)]));
}
