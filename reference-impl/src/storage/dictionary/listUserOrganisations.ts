import type { Queryable } from '../db.ts';
import type { OntologySource } from '../../domain/ontology.ts';

/** One entry of GET /dictionary/userorganisations (DEC-DICT-002). */
export interface UserOrganisationEntry {
  userorganisation: string;
  accountId: string;
  accountName: string;
  ontology: { categorization: OntologySource; properties: OntologySource };
}

// @implements DICT-005
/** Every known userorganisation with its account and the ontologies in use (DICT-005), by name. */
export async function listUserOrganisations(db: Queryable): Promise<UserOrganisationEntry[]> {
  const { rows } = await db.query<{
    userorganisation: string;
    account_id: string;
    account_name: string;
    own_types: boolean;
    own_properties: boolean;
  }>(
    `SELECT o.userorganisation, o.account_id, a.name AS account_name,
            t.account_id IS NOT NULL AS own_types, p.account_id IS NOT NULL AS own_properties
       FROM organisations o
       JOIN accounts a ON a.id = o.account_id
       LEFT JOIN account_type_ontologies t ON t.account_id = o.account_id
       LEFT JOIN account_property_ontologies p ON p.account_id = o.account_id
      ORDER BY o.userorganisation`,
  );
  return rows.map((row) => ({
    userorganisation: row.userorganisation,
    accountId: row.account_id,
    accountName: row.account_name,
    ontology: {
      categorization: row.own_types ? 'account' : 'base',
      properties: row.own_properties ? 'account' : 'base',
    },
  }));
}
