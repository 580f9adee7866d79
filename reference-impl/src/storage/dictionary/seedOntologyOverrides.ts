import type { OntologyOverrides } from '../../domain/ontology.ts';
import type { Queryable } from '../db.ts';
import { putOntologyOverride } from './putOntologyOverride.ts';

/**
 * Stores the account overrides shipped as data (the dictionary's loadDataOverrides; run at start,
 * after the accounts exist). Type
 * ontologies are maintained outside the public interface, so the data file is their source of
 * truth: it replaces the stored one when they differ (and lastModified advances). Property
 * ontologies are owned by PUT once written: the example is stored only for an account without one.
 * Overrides of accounts that do not exist are skipped and returned.
 */
export async function seedOntologyOverrides(
  db: Queryable,
  overrides: OntologyOverrides,
): Promise<{ written: string[]; skipped: string[] }> {
  const accountIds = [...new Set([...overrides.types.keys(), ...overrides.properties.keys()])];
  const { rows } = await db.query<{ id: string }>('SELECT id FROM accounts WHERE id = ANY($1::text[])', [accountIds]);
  const existing = new Set(rows.map((row) => row.id));
  const written: string[] = [];
  const skipped = accountIds.filter((id) => !existing.has(id));
  for (const [accountId, ontology] of overrides.types) {
    if (!existing.has(accountId)) continue;
    const result = await putOntologyOverride(db, { kind: 'types', accountId, ontology });
    if (result.changed) written.push(`${accountId}:types`);
  }
  for (const [accountId, ontology] of overrides.properties) {
    if (!existing.has(accountId)) continue;
    const result = await putOntologyOverride(db, { kind: 'properties', accountId, ontology, onlyIfAbsent: true });
    if (result.changed) written.push(`${accountId}:properties`);
  }
  return { written, skipped };
}
