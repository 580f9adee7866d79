import type { Queryable } from '../storage/db.ts';

/** Whether the store answers a query now (the health endpoint's UP or DOWN, HEALTH-001). */
export async function storageIsUp(db: Queryable): Promise<boolean> {
  try {
    await db.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}
