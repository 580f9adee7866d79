import { Router } from 'express';
import { storageIsUp } from '../maintenance/storageHealth.ts';
import type { Services } from '../services.ts';

// @implements HEALTH-001
/** GET /actuator/health: no token, not rate limited (HEALTH-001, DEC-MISC-001). */
export function healthRoutes(deps: Pick<Services, 'db'>): Router {
  const router = Router();
  router.get('/actuator/health', async (_req, res) => {
    if (await storageIsUp(deps.db)) res.json({ status: 'UP' });
    else res.status(503).json({ status: 'DOWN' });
  });
  return router;
}
