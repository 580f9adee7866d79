import { createApp } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createLogger, type Logger } from '../../src/logger.ts';
import { createServices, type Services, type ServiceStandIns } from '../../src/services.ts';
import type { Db } from '../../src/storage/db.ts';
import { listenLocally } from './listenLocally.ts';

export interface TestApp {
  /** Ends in `/api`. */
  baseUrl: string;
  config: Config;
  /** What the app is assembled from, as `npm start` assembles it; the background services are not started. */
  services: Services;
  /** The app's clock; tests move it with `clock.set()`. Defaults to real time. */
  clock: { now(): number; set(ms: number | undefined): void };
  close(): Promise<void>;
}

/** The configuration tests start from: a free port, storage in memory, no logs, no demo data. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    PORT: '0',
    DATA_DIR: ':memory:',
    LOG_LEVEL: 'silent',
    SEED_DEMO_DATA: 'false',
    SESSION_SECRET: 'x'.repeat(40),
    ...env,
  });
}

/**
 * The app on a random local port over `db`, assembled by createServices and createApp like the
 * service's, without its background services. `env` overrides configuration variables (strings,
 * as in the environment); `deps` gives a logger or stand-ins for services.
 */
export async function startTestApp(
  db: Db,
  options: { env?: Record<string, string>; deps?: ServiceStandIns & { logger?: Logger } } = {},
): Promise<TestApp> {
  let fixed: number | undefined;
  const clock = {
    now: () => fixed ?? Date.now(),
    set: (ms: number | undefined) => {
      fixed = ms;
    },
  };
  const config = testConfig(options.env);
  const { logger = createLogger({ level: config.logLevel }), ...standIns } = options.deps ?? {};
  const services = createServices(config, { db, logger, now: clock.now }, standIns);
  const { origin, close } = await listenLocally(createApp(services));
  return {
    baseUrl: `${origin}/api`,
    config,
    services,
    clock,
    close: async () => {
      await close();
      await services.rateLimitStores.close();
    },
  };
}
