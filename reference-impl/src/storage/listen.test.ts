import { expect, it } from 'vitest';
import { waitFor } from '../../test/support/waitFor.ts';
import { describeEachEngine, TEST_DATABASE_URL } from '../../test/support/storage/testDb.ts';
import { withPostgresClient } from '../../test/support/storage/withPostgresClient.ts';

// Db.listen: what the token cache relies on to hear changes made by other instances (migration 009).

describeEachEngine('listening to notifications', (ctx) => {
  it('when a transaction notifies, then listeners hear it once it commits, and never when it rolls back', async () => {
    const heard: string[] = [];
    const states: boolean[] = [];
    const listener = await ctx.db.listen('test_channel', {
      onNotify: (payload) => heard.push(payload),
      onState: (on) => states.push(on),
    });
    try {
      expect(states).toEqual([true]);
      await ctx.db.transaction(async (tx) => {
        await tx.query(`SELECT pg_notify('test_channel', 'committed')`);
        await tx.query(`SELECT pg_notify('other_channel', 'elsewhere')`);
      });
      await expect(
        ctx.db.transaction(async (tx) => {
          await tx.query(`SELECT pg_notify('test_channel', 'rolled back')`);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      await ctx.db.query(`SELECT pg_notify('test_channel', 'after')`);
      await waitFor('the last notification', () => heard.includes('after'), 2000);
      expect(heard).toEqual(['committed', 'after']);
    } finally {
      await listener.close();
    }
    await ctx.db.query(`SELECT pg_notify('test_channel', 'closed')`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard).not.toContain('closed');
  });

  it('when token or organisation rows change, then auth_changed is notified; when only an ontology key changes, then not (migration 009)', async () => {
    const heard: string[] = [];
    const listener = await ctx.db.listen('auth_changed', { onNotify: (payload) => heard.push(payload) });
    let fences = 0;
    /** Runs `sql`, then notifies a fence: notifications arrive in commit order, so once the fence is heard, so is anything `sql` notified. */
    const expectNotified = async (sql: string, params: unknown[], notified: boolean) => {
      heard.length = 0;
      await ctx.db.query(sql, params);
      const fence = `fence ${++fences}`;
      await ctx.db.query(`SELECT pg_notify('auth_changed', $1)`, [fence]);
      await waitFor(fence, () => heard.includes(fence), 2000);
      expect(heard, sql).toEqual(notified ? ['', fence] : [fence]);
    };
    try {
      await expectNotified(`INSERT INTO accounts (id, name) VALUES ('n-acc', 'n')`, [], false);
      await expectNotified(
        `INSERT INTO organisations (userorganisation, account_id) VALUES ('n-org', 'n-acc')`,
        [],
        true,
      );
      await expectNotified(
        `INSERT INTO api_tokens (id, account_id, name, token_hash) VALUES ('00000000-0000-4000-8000-000000000001', 'n-acc', 'n', 'h')`,
        [],
        false,
      );
      await expectNotified(`UPDATE api_tokens SET name = 'renamed'`, [], false);
      await expectNotified(`UPDATE api_tokens SET filter_wfstatus = '{approved}'`, [], true);
      await expectNotified(`UPDATE organisations SET ontology_key = ontology_key`, [], false);
      await expectNotified(`DELETE FROM api_tokens`, [], true);
    } finally {
      await listener.close();
    }
  });
});

describeEachEngine(
  'listening to notifications when the connection drops',
  (ctx) => {
    it('when the listening connection is terminated, then the listener says it may have missed notifications, connects again and hears the next ones', async () => {
      const heard: string[] = [];
      const states: boolean[] = [];
      const listener = await ctx.db.listen('drop_channel', {
        onNotify: (payload) => heard.push(payload),
        onState: (on) => states.push(on),
      });
      try {
        const { rowCount } = await withPostgresClient(TEST_DATABASE_URL, (admin) =>
          admin.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN drop_channel' AND pid <> pg_backend_pid()`,
          ),
        );
        expect(rowCount).toBe(1);
        await waitFor('the listener to connect again', () => states.length === 3, 5000);
        expect(states).toEqual([true, false, true]);
        await ctx.db.query(`SELECT pg_notify('drop_channel', 'after reconnect')`);
        await waitFor('a notification after reconnecting', () => heard.includes('after reconnect'), 2000);
      } finally {
        await listener.close();
      }
    });
  },
  ['postgres'],
);
