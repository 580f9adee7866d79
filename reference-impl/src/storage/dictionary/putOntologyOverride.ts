import type { Queryable } from '../db.ts';
import type { OntologyKind } from '../../domain/ontology.ts';
import { isoTimestamp, ONTOLOGY_ROOT, ONTOLOGY_TABLE } from './ontologyTables.ts';

export interface PutOntologyOverrideParams {
  kind: OntologyKind;
  accountId: string;
  /** The complete ontology; a `lastModified` in it is ignored (the server sets it). */
  ontology: { categorizations?: unknown; propertyCategories?: unknown };
  /** Write only when the account has no override of this kind yet (seeding examples). */
  onlyIfAbsent?: boolean;
}

export interface PutOntologyOverrideResult {
  lastModified: string;
  /** False when the stored ontology was already equal (or present, with onlyIfAbsent). */
  changed: boolean;
}

/**
 * Stores an account's complete ontology of one kind, replacing the previous one whole.
 * `lastModified` advances only when the document changes, and then strictly: to the current
 * millisecond or 1 ms past the previous value, whichever is later, so that a client (or the cache)
 * comparing it never misses a change, even within one millisecond or with a clock stepping back.
 * The account must exist (a foreign-key violation otherwise).
 */
export async function putOntologyOverride(
  db: Queryable,
  params: PutOntologyOverrideParams,
): Promise<PutOntologyOverrideResult> {
  const table = ONTOLOGY_TABLE[params.kind];
  const root = ONTOLOGY_ROOT[params.kind];
  // Only the root list is kept: lastModified is the column, anything else is not ontology.
  const doc = JSON.stringify({ [root]: params.ontology[root] ?? [] });
  const onConflict = params.onlyIfAbsent
    ? 'DO NOTHING'
    : `DO UPDATE SET doc = EXCLUDED.doc,
         last_modified = GREATEST(EXCLUDED.last_modified, o.last_modified + interval '1 millisecond')
       WHERE o.doc IS DISTINCT FROM EXCLUDED.doc`;
  const written = await db.query<{ last_modified: Date }>(
    `INSERT INTO ${table} AS o (account_id, doc, last_modified)
     VALUES ($1, $2::jsonb, date_trunc('milliseconds', clock_timestamp()))
     ON CONFLICT (account_id) ${onConflict}
     RETURNING last_modified`,
    [params.accountId, doc],
  );
  if (written.rows[0]) return { lastModified: isoTimestamp(written.rows[0].last_modified), changed: true };
  const current = await db.query<{ last_modified: Date }>(`SELECT last_modified FROM ${table} WHERE account_id = $1`, [
    params.accountId,
  ]);
  if (!current.rows[0]) throw new Error(`ontology override of ${params.accountId} vanished while being written`);
  return { lastModified: isoTimestamp(current.rows[0].last_modified), changed: false };
}
