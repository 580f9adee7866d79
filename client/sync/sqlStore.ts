// A mirror in PostgreSQL (`pg`) or embedded PGlite, with the same SQL on both. Two tables per
// store prefix, created when missing:
//   <prefix>items (collection, trcid, lastupdated, wfstatus, item json, synced_at)
//   <prefix>marks (collection, mark, saved_at)
// `lastupdated` and `mark` are text: the service's strings, never re-formatted (SYNC-001).
// `item` is `json`, the item's text as written: storing it costs much less than converting it to
// `jsonb` (cast for jsonb's operators and indexes: `item::jsonb`). Tables made with `item jsonb`
// work as they are: PostgreSQL converts the same statements' json on assignment.

import type { BatchResult, StoreOp, SyncStore } from './store.ts';
import type { Collection, ContentItem, SyncItem } from './types.ts';
import { importPeer } from './optionalPeer.ts';

export interface SqlResult<R> {
  rows: R[];
  /** node-postgres */
  rowCount?: number | null;
  /** PGlite */
  affectedRows?: number;
}

export interface SqlQueryable {
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<SqlResult<R>>;
}

/** A PGlite instance fits as is; wrap a `pg.Pool` with `pgPoolDatabase`. */
export interface SqlDatabase extends SqlQueryable {
  transaction<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T>;
}

/** The part of `pg.Pool` used here. */
export interface PgPoolLike extends SqlQueryable {
  connect(): Promise<SqlQueryable & { release(err?: Error | boolean): void }>;
}

export function pgPoolDatabase(pool: PgPoolLike): SqlDatabase {
  return {
    query: (sql, params) => pool.query(sql, params),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(client);
        await client.query('COMMIT');
        client.release();
        return result;
      } catch (err) {
        // A failed ROLLBACK means a broken connection: drop it instead of returning it to the pool.
        await client.query('ROLLBACK').then(
          () => client.release(),
          () => client.release(true),
        );
        throw err;
      }
    },
  };
}

export interface SqlStoreOptions {
  db: SqlDatabase;
  /** Table name prefix. Default `content_sync_`. */
  prefix?: string;
  /** Page writes (transactions) that may run at once: more than 1 only with a pool. Default 1. */
  parallelWrites?: number;
}

export interface SqlStore<T extends SyncItem = ContentItem> extends SyncStore<T> {
  applyBatch(collection: Collection, ops: readonly StoreOp<T>[]): Promise<BatchResult>;
  /** Creates the tables if missing (also done lazily by the first call). */
  init(): Promise<void>;
  readonly tables: { items: string; marks: string };
}

const affected = (r: SqlResult<unknown>) => r.rowCount ?? r.affectedRows ?? 0;

export function createSqlStore<T extends SyncItem = ContentItem>(options: SqlStoreOptions): SqlStore<T> {
  const prefix = options.prefix ?? 'content_sync_';
  // Table names cannot be bound parameters; allow only plain identifiers.
  if (!/^[a-z_][a-z0-9_]{0,40}$/.test(prefix))
    throw new RangeError(`prefix must match /^[a-z_][a-z0-9_]{0,40}$/ (received: ${JSON.stringify(prefix)})`);
  const { db } = options;
  const items = `${prefix}items`;
  const marks = `${prefix}marks`;

  let ready: Promise<void> | undefined;
  const init = () =>
    (ready ??= (async () => {
      // lz4 compresses an item about twice as fast as PostgreSQL's default, where the server has it.
      const { rows } = await db.query<{ lz4: boolean }>(
        `SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`,
      );
      const compression = rows[0]?.lz4 === true ? ' COMPRESSION lz4' : '';
      await db.query(`CREATE TABLE IF NOT EXISTS ${items} (
        collection text NOT NULL,
        trcid text NOT NULL,
        lastupdated text,
        wfstatus text,
        item json${compression} NOT NULL,
        synced_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (collection, trcid)
      )`);
      await db.query(`CREATE TABLE IF NOT EXISTS ${marks} (
        collection text PRIMARY KEY,
        mark text NOT NULL,
        saved_at timestamptz NOT NULL DEFAULT now()
      )`);
    })().catch((err: unknown) => {
      ready = undefined; // let a later call retry, e.g. after the database came back
      throw err;
    }));

  const upsertSql = `INSERT INTO ${items} (collection, trcid, lastupdated, wfstatus, item, synced_at)
    VALUES ($1, $2, $3, $4, $5::json, now())
    ON CONFLICT (collection, trcid) DO UPDATE
    SET lastupdated = EXCLUDED.lastupdated, wfstatus = EXCLUDED.wfstatus, item = EXCLUDED.item, synced_at = EXCLUDED.synced_at`;
  const removeSql = `DELETE FROM ${items} WHERE collection = $1 AND trcid = $2`;
  // The items come as one text, separated by U+001E (which JSON text never holds unescaped), so
  // that PostgreSQL parses each item once, as it stores it: a JSON array would be parsed twice,
  // as json and again into its elements. The text goes as bytes (bytea, checked as UTF-8 by
  // convert_from): as a string it would be decoded here only for the driver to encode it again.
  // The keys come as arrays beside them: reading them out of each item's json would parse the
  // item once for each.
  const upsertManySql = `INSERT INTO ${items} (collection, trcid, lastupdated, wfstatus, item, synced_at)
    SELECT $1, k.trcid, k.lastupdated, k.wfstatus, e.item::json, now()
    FROM unnest(string_to_array(convert_from($2::bytea, 'UTF8'), chr(30))) WITH ORDINALITY AS e(item, n)
    JOIN unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS k(trcid, lastupdated, wfstatus, n) USING (n)
    ON CONFLICT (collection, trcid) DO UPDATE
    SET lastupdated = EXCLUDED.lastupdated, wfstatus = EXCLUDED.wfstatus, item = EXCLUDED.item, synced_at = EXCLUDED.synced_at`;
  const removeManySql = `DELETE FROM ${items} WHERE collection = $1 AND trcid = ANY($2::text[])`;
  const upsertParams = (c: Collection, item: T) => [
    c,
    item.trcid,
    item.lastupdated ?? null,
    item.wfstatus ?? null,
    JSON.stringify(item),
  ];

  return {
    keepsItemText: true,
    parallelWrites: options.parallelWrites ?? 1,
    tables: { items, marks },
    init,
    async getMark(c) {
      await init();
      const { rows } = await db.query<{ mark: string }>(`SELECT mark FROM ${marks} WHERE collection = $1`, [c]);
      return rows[0]?.mark;
    },
    async putMark(c, mark) {
      await init();
      await db.query(
        `INSERT INTO ${marks} (collection, mark, saved_at) VALUES ($1, $2, now())
         ON CONFLICT (collection) DO UPDATE SET mark = EXCLUDED.mark, saved_at = EXCLUDED.saved_at`,
        [c, mark],
      );
    },
    async upsert(c, item) {
      await init();
      await db.query(upsertSql, upsertParams(c, item));
    },
    async remove(c, trcid) {
      await init();
      return affected(await db.query(removeSql, [c, trcid])) > 0;
    },
    async listTrcids(c) {
      await init();
      const { rows } = await db.query<{ trcid: string }>(
        `SELECT trcid FROM ${items} WHERE collection = $1 ORDER BY trcid`,
        [c],
      );
      return rows.map((r) => r.trcid);
    },
    async getItem(c, trcid) {
      await init();
      const { rows } = await db.query<{ item: T }>(`SELECT item FROM ${items} WHERE collection = $1 AND trcid = $2`, [
        c,
        trcid,
      ]);
      return rows[0]?.item;
    },
    async applyBatch(c, ops) {
      await init();
      // Applying the operations in order leaves each trcid as its last operation says, so one
      // DELETE and one INSERT of the page's items (as one text) do the same in two statements.
      const last = new Map<string, StoreOp<T>>();
      for (const op of ops) {
        last.delete(op.trcid);
        last.set(op.trcid, op);
      }
      const removals: string[] = [];
      // The page's items, from their bytes as received when sync gives them: neither serialised
      // again nor decoded one by one.
      const texts: Uint8Array[] = [];
      const keys = {
        trcid: [] as string[],
        lastupdated: [] as Array<string | null>,
        wfstatus: [] as Array<string | null>,
      };
      for (const [trcid, op] of last) {
        if (op.op === 'upsert') {
          const json = op.json ?? Buffer.from(JSON.stringify(op.item));
          // Not JSON, and it would split the item in two.
          if (json.indexOf(SEPARATOR_BYTE) !== -1)
            throw new SyntaxError(`the item ${trcid} is not JSON text: it holds an unescaped U+001E`);
          if (texts.length > 0) texts.push(SEPARATOR);
          texts.push(json);
          keys.trcid.push(trcid);
          // An op without them but with its item (not its text) gives them as upsert() takes them.
          const item = op.json === undefined ? op.item : undefined;
          keys.lastupdated.push(op.lastupdated ?? item?.lastupdated ?? null);
          keys.wfstatus.push(op.wfstatus ?? item?.wfstatus ?? null);
        } else removals.push(trcid);
      }
      return db.transaction(async (tx) => {
        const removed = removals.length === 0 ? 0 : affected(await tx.query(removeManySql, [c, removals]));
        if (texts.length > 0)
          await tx.query(upsertManySql, [c, Buffer.concat(texts), keys.trcid, keys.lastupdated, keys.wfstatus]);
        return { upserted: ops.filter((op) => op.op === 'upsert').length, removed };
      });
    },
  };
}

/** Between the items of a page's upsert: the record separator, never unescaped in JSON text. */
const SEPARATOR_BYTE = 0x1e;
const SEPARATOR = Buffer.from([SEPARATOR_BYTE]);

export interface OpenSqlStoreOptions {
  /** `postgres://…`: use PostgreSQL through `pg`. */
  databaseUrl?: string;
  /** PGlite data directory (embedded); omitted = in memory. Ignored with `databaseUrl`. */
  dataDir?: string;
  prefix?: string;
}

/** Opens a store and the database under it; `close()` ends the pool or PGlite. */
export async function openSqlStore<T extends SyncItem = ContentItem>(
  options: OpenSqlStoreOptions = {},
): Promise<{ store: SqlStore<T>; close(): Promise<void> }> {
  if (options.databaseUrl) {
    const { default: pg } = await importPeer<typeof import('pg')>('pg', 'A PostgreSQL store (databaseUrl)');
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 4 });
    // Two page writes at once, each on a connection of the pool.
    const store = createSqlStore<T>({
      db: pgPoolDatabase(pool as unknown as PgPoolLike),
      prefix: options.prefix,
      parallelWrites: 2,
    });
    await store.init();
    return { store, close: () => pool.end() };
  }
  const { PGlite } = await importPeer<typeof import('@electric-sql/pglite')>(
    '@electric-sql/pglite',
    'An embedded store (dataDir)',
  );
  const pglite = await PGlite.create(options.dataDir);
  const store = createSqlStore<T>({ db: pglite as unknown as SqlDatabase, prefix: options.prefix });
  await store.init();
  return { store, close: () => pglite.close() };
}
