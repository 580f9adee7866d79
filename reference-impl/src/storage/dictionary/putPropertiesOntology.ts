import type { Queryable } from '../db.ts';
import type { OntologyBody, PropertyOntology } from '../../domain/ontology.ts';
import { putOntologyOverride } from './putOntologyOverride.ts';

// @implements ONTO-010, ONTO-016
/**
 * PUT /dictionary/propertiesOntology?accountId= (ONTO-017, DICT-004): the body replaces the
 * account's property ontology whole. Check the body first (schema, then checkPropertyOntology) and
 * that the account exists (DEC-DICT-005); afterwards tell the ontology cache (`invalidate`).
 * Answers the `lastModified` the server set.
 * @implements ONTO-017, DICT-004
 */
export async function putPropertiesOntology(
  db: Queryable,
  params: { accountId: string; ontology: OntologyBody<PropertyOntology> },
): Promise<{ lastModified: string; changed: boolean }> {
  return putOntologyOverride(db, { kind: 'properties', accountId: params.accountId, ontology: params.ontology });
}
