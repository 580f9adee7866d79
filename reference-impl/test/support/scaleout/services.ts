// Are the shared services there? PostgreSQL is probed by ../storage/testDb.ts; Redis here.
// As there: unreachable means skipped locally, but a failure with CI=true.

import { Redis } from 'ioredis';
import { skipPostgres } from '../storage/testDb.ts';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function probeRedis(): Promise<{ reachable: boolean; reason?: string }> {
  const client = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return { reachable: true };
  } catch (error) {
    return { reachable: false, reason: (error as Error).message };
  } finally {
    client.disconnect();
  }
}

export const redisProbe = await probeRedis();

/** Skip only when a service is missing and CI is not set (with CI=true the tests run and fail). */
export function skipWithoutServices(needs: { redis: boolean }): boolean {
  if (process.env.CI === 'true') return false;
  if (needs.redis && !redisProbe.reachable) {
    console.warn(
      `Redis at ${TEST_REDIS_URL} is unreachable (${redisProbe.reason}); skipping. With CI=true this fails instead.`,
    );
    return true;
  }
  return skipPostgres();
}
