import { createApp, type AppDeps } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { createMemoryStore } from '../../src/ratelimit/memoryStore.ts';
import type { Db } from '../../src/storage/db.ts';
import { ignoreItemChanges } from '../../src/webhooks/itemChange.ts';
import { listenLocally } from './listenLocally.ts';

export interface TestApp {
  /** Ends in `/api`. */
  baseUrl: string;
  config: Config;
  /** The app's clock; tests move it with `clock.set()`. Defaults to real time. */
  clock: { now(): number; set(ms: number | undefined): void };
  close(): Promise<void>;
}

/**
 * The app on a random local port over `db`. `env` overrides configuration variables (strings, as
 * in the environment); `deps` overrides dependencies.
 */
export async function startTestApp(
  db: Db,
  options: { env?: Record<string, string>; deps?: Partial<AppDeps> } = {},
): Promise<TestApp> {
  let fixed: number | undefined;
  const clock = {
    now: () => fixed ?? Date.now(),
    set: (ms: number | undefined) => {
      fixed = ms;
    },
  };
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: ':memory:',
    LOG_LEVEL: 'silent',
    SEED_DEMO_DATA: 'false',
    SESSION_SECRET: 'x'.repeat(40),
    ...options.env,
  });
  const app = createApp(config, {
    db,
    logger: createLogger({ level: config.logLevel }),
    rateLimitStore: createMemoryStore({ now: clock.now }),
    now: clock.now,
    recordItemChange: ignoreItemChanges,
    ...options.deps,
  });
  const { origin, close } = await listenLocally(app);
  return { baseUrl: `${origin}/api`, config, clock, close };
}
