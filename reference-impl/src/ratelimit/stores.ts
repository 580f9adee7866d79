import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { AUTH_KEY_PREFIX, AUTH_POLICY } from './authThrottle.ts';
import { createMemoryStore } from './memoryStore.ts';
import { createRedisClient, createRedisStore } from './redisStore.ts';
import type { RateLimitStore } from './store.ts';

/** The buckets of the lists' limit (RATE-001) and of the sign-in throttle (DEC-AUTH-016). */
export interface RateLimitStores {
  lists: RateLimitStore;
  auth: RateLimitStore;
  /** Whether the shared store answers; in memory always. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

/** In memory on `now`, or both in Redis (REDIS_URL) over one connection, each with its policy and key prefix. */
export function createRateLimitStores(config: Config, logger: Logger, now: () => number): RateLimitStores {
  if (config.redisUrl === undefined) {
    return {
      lists: createMemoryStore({ now }),
      auth: createMemoryStore({ policy: AUTH_POLICY, now }),
      ready: async () => true,
      close: async () => {},
    };
  }
  const redis = createRedisClient(config.redisUrl);
  const log = { warn: (msg: string) => logger.warn(msg), info: (msg: string) => logger.info(msg) };
  const lists = createRedisStore({ redis, log });
  const auth = createRedisStore({ redis, log, label: 'sign-in', policy: AUTH_POLICY, keyPrefix: AUTH_KEY_PREFIX });
  return {
    lists,
    auth,
    ready: () => lists.ready(),
    close: async () => {
      redis.disconnect();
    },
  };
}
