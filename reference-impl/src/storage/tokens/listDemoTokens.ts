import type { Queryable } from '../db.ts';

export interface DemoTokenRow {
  id: string;
  account_id: string;
  name: string;
  roles: string[];
  filter_wfstatus: string[] | null;
  can_write: boolean;
}

/** The tokens the demo seed made (migration 011's flag), oldest first; never one a user created. */
export async function listDemoTokens(db: Queryable): Promise<DemoTokenRow[]> {
  const { rows } = await db.query<DemoTokenRow>(
    `SELECT id, account_id, name, roles, filter_wfstatus, can_write FROM api_tokens WHERE demo ORDER BY created, id`,
  );
  return rows;
}
