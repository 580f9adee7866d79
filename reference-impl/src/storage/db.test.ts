import { expect, it } from 'vitest';
import { DbError, UniqueViolationError, isUniqueViolation } from './errors.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';

describeEachEngine('Db', (ctx) => {
  it('when querying with parameters, then both engines return the same JavaScript values', async () => {
    const { rows } = await ctx.db.query(
      `SELECT $1::text AS text, $2::int AS int, 9007199254740993::int8 AS big, 3::int8 AS small, 1.5::numeric AS num,
              $3::timestamptz AS at, '2026-01-02'::date AS day, '2026-01-02 03:04:05.678'::timestamp AS local,
              $4::text[] AS list, $5::text::jsonb AS doc, NULL::text AS nothing, true AS yes`,
      ['tekst', 42, new Date('2026-11-20T08:30:00.123Z'), ['a', 'b c'], JSON.stringify({ a: [1, { b: null }] })],
    );
    expect(rows[0]).toEqual({
      text: 'tekst',
      int: 42,
      big: 9007199254740993n,
      small: 3,
      num: '1.5',
      at: new Date('2026-11-20T08:30:00.123Z'),
      day: new Date('2026-01-02T00:00:00.000Z'),
      local: new Date('2026-01-02T03:04:05.678Z'),
      list: ['a', 'b c'],
      doc: { a: [1, { b: null }] },
      nothing: null,
      yes: true,
    });
  });

  it('when json documents have escaped member names, then each comes back as written, after a similar earlier one', async () => {
    // JSON.parse reads the second name as "\\" after the first (nodejs/node#63785; spec/json.ts).
    const read = async (text: string) =>
      (await ctx.db.query<{ doc: unknown; stored: unknown }>('SELECT $1::json AS doc, $1::jsonb AS stored', [text]))
        .rows[0];
    expect(await read('{"h":[],"\\\\":0}')).toEqual({ doc: { h: [], '\\': 0 }, stored: { h: [], '\\': 0 } });
    expect(await read('{"h":1,"\\"":2}')).toEqual({ doc: { h: 1, '"': 2 }, stored: { h: 1, '"': 2 } });
  });

  it('when running a script, then all its statements run; affectedRows counts changed rows only', async () => {
    await ctx.db.exec(
      `CREATE TABLE t_script (k text CONSTRAINT t_script_pkey PRIMARY KEY, n int); CREATE INDEX t_script_n ON t_script (n);`,
    );
    const inserted = await ctx.db.query(`INSERT INTO t_script VALUES ('a', 1), ('b', 2)`);
    expect(inserted.affectedRows).toBe(2);
    const updated = await ctx.db.query(`UPDATE t_script SET n = n + 1 WHERE k = 'a'`);
    expect(updated.affectedRows).toBe(1);
    const selected = await ctx.db.query(`SELECT * FROM t_script`);
    expect(selected.rows).toHaveLength(2);
    expect(selected.affectedRows).toBeUndefined();
  });

  it('when a unique key collides, then the error is a UniqueViolationError naming the constraint', async () => {
    const error = await ctx.db.query(`INSERT INTO t_script VALUES ('a', 9)`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UniqueViolationError);
    expect(error).toMatchObject({ code: '23505', constraint: 't_script_pkey', table: 't_script' });
    expect(isUniqueViolation(error, 't_script_pkey')).toBe(true);
    expect(isUniqueViolation(error, 'other')).toBe(false);
  });

  it('when a query is invalid, then the error is a DbError with its SQLSTATE', async () => {
    const error = await ctx.db.query(`SELECT $1::uuid`, ['not-a-uuid']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DbError);
    expect((error as DbError).code).toBe('22P02');
    const syntax = await ctx.db.exec(`SELEC 1`).catch((e: unknown) => e);
    expect((syntax as DbError).code).toBe('42601');
  });

  it('when a transaction resolves, then its writes are committed; when it throws, they are rolled back', async () => {
    const result = await ctx.db.transaction(async (tx) => {
      await tx.query(`INSERT INTO t_script VALUES ('c', 3)`);
      return 'done';
    });
    expect(result).toBe('done');
    const failure = await ctx.db
      .transaction(async (tx) => {
        await tx.query(`INSERT INTO t_script VALUES ('d', 4)`);
        await tx.exec(`INSERT INTO t_script VALUES ('e', 5); INSERT INTO t_script VALUES ('f', 6)`);
        throw new Error('abort');
      })
      .catch((e: unknown) => e);
    expect((failure as Error).message).toBe('abort');
    const failedStatement = await ctx.db
      .transaction(async (tx) => {
        await tx.query(`INSERT INTO t_script VALUES ('g', 7)`);
        await tx.query(`INSERT INTO t_script VALUES ('a', 0)`);
      })
      .catch((e: unknown) => e);
    expect(failedStatement).toBeInstanceOf(UniqueViolationError);
    const { rows } = await ctx.db.query<{ k: string }>(`SELECT k FROM t_script ORDER BY k`);
    expect(rows.map((r) => r.k)).toEqual(['a', 'b', 'c']);
  });

  it('when transactions run concurrently, then each sees only its own uncommitted writes and all commit', async () => {
    await ctx.db.exec(
      `CREATE TABLE t_counter (id int PRIMARY KEY, n int NOT NULL); INSERT INTO t_counter VALUES (1, 0)`,
    );
    // Read-modify-write with a row lock: interleaving on one PGlite connection would lose updates.
    await Promise.all(
      Array.from({ length: 20 }, () =>
        ctx.db.transaction(async (tx) => {
          const { rows } = await tx.query<{ n: number }>(`SELECT n FROM t_counter WHERE id = 1 FOR UPDATE`);
          await new Promise((resolve) => setTimeout(resolve, 1));
          await tx.query(`UPDATE t_counter SET n = $1 WHERE id = 1`, [rows[0]!.n + 1]);
        }),
      ),
    );
    const { rows } = await ctx.db.query<{ n: number }>(`SELECT n FROM t_counter WHERE id = 1`);
    expect(rows[0]!.n).toBe(20);
  });

  it('when the Db itself is used inside its transaction callback, then that call throws instead of hanging', async () => {
    const error = await ctx.db.transaction(async () => ctx.db.query('SELECT 1')).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/inside db\.transaction\(\)/);
    const nested = await ctx.db.transaction(async () => ctx.db.transaction(async () => 1)).catch((e: unknown) => e);
    expect((nested as Error).message).toMatch(/inside db\.transaction\(\)/);
    // Work started inside but finished after the transaction may use the Db.
    let later: Promise<unknown> = Promise.resolve();
    await ctx.db.transaction(async () => {
      later = new Promise((resolve) => setTimeout(resolve, 20)).then(() => ctx.db.query('SELECT 1 AS one'));
    });
    await expect(later).resolves.toMatchObject({ rows: [{ one: 1 }] });
  });

  /** Every batch of a stream, in order. */
  const batchesOf = async <R>(stream: AsyncIterable<readonly R[]>): Promise<(readonly R[])[]> => {
    const batches: (readonly R[])[] = [];
    for await (const batch of stream) batches.push(batch);
    return batches;
  };
  const MANY_ROWS = `SELECT g AS n, repeat('x', 200) || g AS text, $1::timestamptz AS at FROM generate_series(1, 20000) g ORDER BY g`;

  it('when rows are streamed, then they arrive in order with the values query gives, in batches as they arrive on PostgreSQL', async () => {
    const at = new Date('2026-11-27T10:00:00.000Z');
    const batches = await batchesOf(ctx.db.streamRows<{ n: number; text: string; at: Date }>(MANY_ROWS, [at]));
    expect(batches.flat()).toEqual((await ctx.db.query(MANY_ROWS, [at])).rows);
    // PGlite has no transfer to overlap: one batch. PostgreSQL's 4.5 MB come in many packets.
    if (ctx.db.engine === 'pglite') expect(batches).toHaveLength(1);
    else expect(batches.length).toBeGreaterThan(1);
  });

  it('when streams are stopped early, more times than the pool has connections, then each gives its connection back', async () => {
    for (let i = 0; i < 12; i++) {
      for await (const batch of ctx.db.streamRows<{ n: number }>(MANY_ROWS, [new Date()])) {
        expect(batch[0]!.n).toBe(1);
        break;
      }
    }
    await expect(ctx.db.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
  });

  it('when streams are read slowly, more at once than the pool has connections, then each gives its connection back once its query is over', async () => {
    const readers = Array.from({ length: 12 }, () =>
      ctx.db.streamRows<{ n: number }>(MANY_ROWS, [new Date()])[Symbol.asyncIterator](),
    );
    // One batch each, one after the other: with connections held until each reader is done, the
    // ninth would wait for a connection forever.
    const firstBatches: number[] = [];
    for (const reader of readers) {
      const first = (await reader.next()).value!;
      expect(first[0]!.n).toBe(1);
      firstBatches.push(first.length);
    }
    await expect(ctx.db.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
    for (const [i, reader] of readers.entries()) {
      let rows = firstBatches[i]!;
      for (let next = await reader.next(); !next.done; next = await reader.next()) rows += next.value.length;
      expect(rows).toBe(20000);
    }
  });

  it('when a streamed query fails, then reading it throws a DbError, and the Db goes on', async () => {
    const error = await batchesOf(ctx.db.streamRows('SELECT 1 / (g - 3) FROM generate_series(1, 5) g')).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DbError);
    expect((error as DbError).code).toBe('22012');
    await expect(batchesOf(ctx.db.streamRows('SELECT 2 AS two'))).resolves.toEqual([[{ two: 2 }]]);
    await expect(
      ctx.db.transaction(async () => batchesOf(ctx.db.streamRows('SELECT 1'))),
      'not inside a transaction',
    ).rejects.toThrow(/inside db\.transaction\(\)/);
  });

  it('when the connection of a stream drops mid-way, then reading it throws, and the Db goes on with other connections', async (test) => {
    if (ctx.db.engine !== 'postgres') return test.skip();
    const dropping = `SELECT g, repeat('x', 200), CASE WHEN g = 10000 THEN pg_terminate_backend(pg_backend_pid()) END AS bye
      FROM generate_series(1, 20000) g`;
    await expect(batchesOf(ctx.db.streamRows(dropping))).rejects.toThrow();
    await expect(ctx.db.query('SELECT 1 AS one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
  });
});
