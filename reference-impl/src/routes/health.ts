import { Router } from 'express';
import type { Queryable } from '../storage/db.ts';

// @implements HEALTH-001
/** GET /actuator/health: no token, not rate limited (HEALTH-001, DEC-MISC-001). */
export function healthRoutes(deps: { db: Queryable }): Router {
  const router = Router();
  router.get('/actuator/health', async (_req, res) => {
    try {
      await deps.db.query('SELECT 1');
      res.json({ status: 'UP' });
    } catch {
      res.status(503).json({ status: 'DOWN' });
    }
  });
  return router;
}
