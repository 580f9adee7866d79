import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DAY,
  HOUR,
  MINUTE,
  MiB,
  SECOND,
  VARIABLES,
  configSummary,
  defaultOf,
  defaultText,
  describeConfig,
  loadConfig,
  type Variable,
} from './config.ts';
import { text } from './configValues.ts';

function problemsOf(env: Record<string, string>): { variable: string; message: string }[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return [...(error as ConfigError).problems];
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it.each([
    [{}, true],
    [{ DATABASE_URL: 'postgres://u@db/content' }, false],
    [{ DATABASE_URL: 'postgres://u@db/content', SEED_DEMO_DATA: 'true' }, true],
    [{ SEED_DEMO_DATA: 'false' }, false],
    [{ NODE_ENV: 'production' }, false],
    [{ NODE_ENV: 'production', SEED_DEMO_DATA: 'true' }, true],
    [{ NODE_ENV: 'development' }, true],
  ])('when the environment is %j, then demo data is seeded: %s', (env, seeded) => {
    expect(loadConfig(env).seedDemoData).toBe(seeded);
  });

  it('when the connection limits are set, then they apply; a headers timeout above the request timeout is an error', () => {
    expect(
      loadConfig({ REQUEST_TIMEOUT: '5s', HEADERS_TIMEOUT: '2s', MAX_CONNECTIONS: '0', MAX_CONNECTIONS_PER_IP: '10' }),
    ).toMatchObject({
      requestTimeoutMs: 5 * SECOND,
      headersTimeoutMs: 2 * SECOND,
      maxConnections: 0,
      maxConnectionsPerIp: 10,
    });
    expect(loadConfig({})).toMatchObject({
      requestTimeoutMs: 30 * SECOND,
      headersTimeoutMs: 10 * SECOND,
      maxConnections: 2048,
      maxConnectionsPerIp: 256,
      preAuthBodyMaxBytes: 16 * 1024,
    });
    expect(() => loadConfig({ REQUEST_TIMEOUT: '5s', HEADERS_TIMEOUT: '6s' })).toThrow('HEADERS_TIMEOUT');
    expect(() => loadConfig({ REQUEST_TIMEOUT: '1500ms' })).toThrow('REQUEST_TIMEOUT');
  });

  it('when nothing is set, then every default applies', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      publicBaseUrl: 'http://127.0.0.1:8080/api',
      databaseUrl: undefined,
      dataDir: './data',
      redisUrl: undefined,
      bootstrapAdminToken: undefined,
      seedDemoData: true,
      trustProxy: false,
      logLevel: 'info',
      allowInsecureCallbacks: false,
      webhookTimeoutMs: 5 * SECOND,
      assetMaxBytes: 20 * MiB,
      rateLimitEnabled: true,
    });
    expect(config.webhookRetryScheduleMs).toEqual([
      5 * SECOND,
      5 * MINUTE,
      30 * MINUTE,
      2 * HOUR,
      5 * HOUR,
      10 * HOUR,
      24 * HOUR,
    ]);
    expect(config.sessionSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(config.warnings.some((w) => w.includes('SESSION_SECRET'))).toBe(true);
  });

  it('when nothing is set, then the size cap starts 2026-11-01T00:00 Europe/Amsterdam [LIMIT-003]', () => {
    expect(loadConfig({}).sizeCapEnforcedFrom.toISOString()).toBe('2026-10-31T23:00:00.000Z');
  });

  it('when the asset variables are set, then they are parsed, and out-of-range values are refused', () => {
    expect(
      loadConfig({
        ASSET_CACHE_BYTES: '8MiB',
        ASSET_RESIZE_MAX_PIXELS: '25000000',
        ASSET_RESIZE_CONCURRENCY: '2',
        ASSET_RESIZE_TIMEOUT: '1m',
      }),
    ).toMatchObject({
      assetCacheBytes: 8 * MiB,
      assetResizeMaxPixels: 25_000_000,
      assetResizeConcurrency: 2,
      assetResizeTimeoutMs: MINUTE,
    });
    const problems = problemsOf({
      ASSET_CACHE_BYTES: 'lots',
      ASSET_RESIZE_MAX_PIXELS: '0',
      ASSET_RESIZE_CONCURRENCY: '65',
      ASSET_RESIZE_TIMEOUT: '1500ms',
    });
    expect(problems.map((p) => p.variable).sort()).toEqual([
      'ASSET_CACHE_BYTES',
      'ASSET_RESIZE_CONCURRENCY',
      'ASSET_RESIZE_MAX_PIXELS',
      'ASSET_RESIZE_TIMEOUT',
    ]);
    expect(problems.find((p) => p.variable === 'ASSET_RESIZE_TIMEOUT')!.message).toBe(
      'expected whole seconds, such as 20s or 1m (received: "1500ms")',
    );
  });

  it('when LIST_CACHE_BYTES is set, then it is parsed, 0 turns the list cache off, and nonsense is refused', () => {
    expect(loadConfig({}).listCacheBytes).toBe(64 * MiB);
    expect(loadConfig({ LIST_CACHE_BYTES: '16MiB' }).listCacheBytes).toBe(16 * MiB);
    expect(loadConfig({ LIST_CACHE_BYTES: '0' }).listCacheBytes).toBe(0);
    expect(loadConfig({ LIST_CACHE_BYTES: '0MiB' }).listCacheBytes).toBe(0);
    expect(problemsOf({ LIST_CACHE_BYTES: '-1' }).map((p) => p.variable)).toEqual(['LIST_CACHE_BYTES']);
  });

  it('when the session secret is not set, then each load draws a fresh random one', () => {
    expect(loadConfig({}).sessionSecret).not.toBe(loadConfig({}).sessionSecret);
  });

  it('when values are set, then they are parsed into typed values', () => {
    const config = loadConfig({
      PORT: '0',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u:p@db:5432/content',
      DATA_DIR: ':memory:',
      REDIS_URL: 'redis://cache:6379',
      BOOTSTRAP_ADMIN_TOKEN: 'cst_bootstrap-token-for-tests',
      SEED_DEMO_DATA: 'false',
      SIZE_CAP_ENFORCED_FROM: '2026-07-01',
      TRUST_PROXY: '2',
      LOG_LEVEL: 'DEBUG',
      ALLOW_INSECURE_CALLBACKS: 'yes',
      WEBHOOK_RETRY_SCHEDULE: '1s, 500ms,1.5m,1d',
      WEBHOOK_TIMEOUT: '2s',
      ASSET_MAX_BYTES: '5MB',
      SESSION_SECRET: 'x'.repeat(32),
      RATE_LIMIT_ENABLED: '0',
    });
    expect(config).toMatchObject({
      port: 0,
      host: '0.0.0.0',
      publicBaseUrl: 'http://127.0.0.1:0/api',
      databaseUrl: 'postgres://u:p@db:5432/content',
      dataDir: ':memory:',
      redisUrl: 'redis://cache:6379',
      bootstrapAdminToken: 'cst_bootstrap-token-for-tests',
      seedDemoData: false,
      trustProxy: 2,
      logLevel: 'debug',
      allowInsecureCallbacks: true,
      webhookTimeoutMs: 2 * SECOND,
      assetMaxBytes: 5_000_000,
      sessionSecret: 'x'.repeat(32),
      rateLimitEnabled: false,
    });
    expect(config.sizeCapEnforcedFrom.toISOString()).toBe('2026-06-30T22:00:00.000Z');
    expect(config.webhookRetryScheduleMs).toEqual([SECOND, 500, 90 * SECOND, DAY]);
  });

  it('when WEBHOOK_LEASE is set, then it must be longer than WEBHOOK_TIMEOUT; unset, the worker default applies', () => {
    expect(loadConfig({}).webhookLeaseMs).toBeUndefined();
    expect(loadConfig({ WEBHOOK_TIMEOUT: '1s', WEBHOOK_LEASE: '1500ms' }).webhookLeaseMs).toBe(1500);
    expect(problemsOf({ WEBHOOK_LEASE: '5s' })[0]!.variable).toBe('WEBHOOK_LEASE');
    expect(problemsOf({ WEBHOOK_LEASE: 'soon' })[0]!.variable).toBe('WEBHOOK_LEASE');
  });

  it('when the webhook dev mode is asked for with NODE_ENV=production, then start is refused; elsewhere it is on', () => {
    expect(problemsOf({ ALLOW_INSECURE_CALLBACKS: 'true', NODE_ENV: 'production' })).toEqual([
      expect.objectContaining({
        variable: 'ALLOW_INSECURE_CALLBACKS',
        message: expect.stringContaining('NODE_ENV=production'),
      }),
    ]);
    expect(loadConfig({ ALLOW_INSECURE_CALLBACKS: 'true', NODE_ENV: 'development' }).allowInsecureCallbacks).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', SEED_DEMO_DATA: 'false' }).allowInsecureCallbacks).toBe(false);
  });

  it('when PUBLIC_BASE_URL is set, then it is used without its trailing slash', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://content.example.com/api/' }).publicBaseUrl).toBe(
      'https://content.example.com/api',
    );
    expect(loadConfig({ HOST: '::1', PORT: '9000' }).publicBaseUrl).toBe('http://[::1]:9000/api');
  });

  it('when TRUST_PROXY is true, a hop count or an address list, then it is kept in Express form [DEC-RATE-004]', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'FALSE' }).trustProxy).toBe(false);
    expect(
      loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::/8, 192.168.1.1, 172.16.0.0/255.240.0.0' }).trustProxy,
    ).toBe('loopback, 10.0.0.0/8,fd00::/8, 192.168.1.1, 172.16.0.0/255.240.0.0');
  });

  it('when a variable is empty, then it counts as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '  ' })).toMatchObject({ port: 8080, databaseUrl: undefined });
  });

  it('when values are invalid, then one error names every bad variable and its value', () => {
    const problems = problemsOf({
      PORT: '80a',
      PUBLIC_BASE_URL: 'ftp://x/api',
      DATABASE_URL: 'mysql://db',
      REDIS_URL: 'cache:6379',
      SEED_DEMO_DATA: 'maybe',
      SIZE_CAP_ENFORCED_FROM: 'November',
      TRUST_PROXY: 'my-proxy',
      LOG_LEVEL: 'loud',
      ALLOW_INSECURE_CALLBACKS: '2',
      WEBHOOK_RETRY_SCHEDULE: '5s,,5m',
      WEBHOOK_TIMEOUT: '5',
      ASSET_MAX_BYTES: '-1',
      SESSION_SECRET: 'short',
      RATE_LIMIT_ENABLED: 'nope',
    });
    expect(problems.map((p) => p.variable).sort()).toEqual([
      'ALLOW_INSECURE_CALLBACKS',
      'ASSET_MAX_BYTES',
      'DATABASE_URL',
      'LOG_LEVEL',
      'PORT',
      'PUBLIC_BASE_URL',
      'RATE_LIMIT_ENABLED',
      'REDIS_URL',
      'SEED_DEMO_DATA',
      'SESSION_SECRET',
      'SIZE_CAP_ENFORCED_FROM',
      'TRUST_PROXY',
      'WEBHOOK_RETRY_SCHEDULE',
      'WEBHOOK_TIMEOUT',
    ]);
    expect(problems.find((p) => p.variable === 'PORT')!.message).toBe('expected an integer 0…65535 (received: "80a")');
    const error = (() => {
      try {
        loadConfig({ LOG_LEVEL: 'loud' });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toContain('LOG_LEVEL');
  });

  it('when out-of-range values are given, then they are refused', () => {
    expect(problemsOf({ PORT: '65536' })[0]!.variable).toBe('PORT');
    expect(problemsOf({ TRUST_PROXY: '10.0.0.0/33' })[0]!.variable).toBe('TRUST_PROXY');
    expect(problemsOf({ WEBHOOK_TIMEOUT: '0s' })[0]!.variable).toBe('WEBHOOK_TIMEOUT');
    expect(problemsOf({ PUBLIC_BASE_URL: 'http://x/api?q=1' })[0]!.variable).toBe('PUBLIC_BASE_URL');
  });

  it('when loaded, then the config is frozen', () => {
    const config = loadConfig({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.webhookRetryScheduleMs)).toBe(true);
    expect(() => {
      (config as { port: number }).port = 1;
    }).toThrow(TypeError);
  });

  it('when loading, then it reads exactly the variables that describeConfig lists', () => {
    const read = new Set<string>();
    const env = new Proxy({} as Record<string, string>, {
      get: (_t, key) => {
        read.add(String(key));
        return undefined;
      },
    });
    loadConfig(env);
    expect([...read].sort()).toEqual(VARIABLES.map((v) => v.name).sort());
    const help = describeConfig();
    for (const v of VARIABLES) expect(help).toContain(v.name);
    expect(help).toContain('5s,5m,30m,2h,5h,10h,24h');
    expect(help).toContain('2026-11-01T00:00 (Europe/Amsterdam)');
  });
});

describe('the table of variables', () => {
  const table: readonly Variable<string, unknown>[] = VARIABLES;
  const refusing = table.filter((v) => {
    try {
      v.kind.parse('@not a value@');
      return false;
    } catch {
      return true;
    }
  });

  it('when names and keys are listed, then each is there once', () => {
    expect(new Set(table.map((v) => v.name)).size).toBe(table.length);
    expect(new Set(table.map((v) => v.key)).size).toBe(table.length);
    expect(Object.keys(loadConfig({})).sort()).toEqual([...table.map((v) => v.key), 'warnings'].sort());
  });

  it.each(refusing.map((v) => [v.name]))('when %s holds nonsense, then the error names it and the value', (name) => {
    expect(problemsOf({ [name]: '@not a value@' })).toEqual([
      { variable: name, message: expect.stringMatching(/^expected .* \(received: "@not a value@"\)$/) },
    ]);
  });

  it('when only free-text variables accept nonsense, then every other kind refuses it', () => {
    expect(table.filter((v) => !refusing.includes(v)).map((v) => v.name)).toEqual([
      'HOST',
      'DATA_DIR',
      'BOOTSTRAP_ADMIN_TOKEN',
      'NODE_ENV',
      'FEEDS_FILE',
    ]);
  });

  it.each(table.filter((v) => typeof v.default !== 'function' && v.default !== undefined).map((v) => [v.name, v]))(
    'when the default of %s is written as text, then that text reads back as the default',
    (_name, v) => {
      expect(v.kind.parse(v.kind.format(v.default as {}))).toEqual(v.default);
      const fixed = { SESSION_SECRET: 's'.repeat(32) };
      expect(loadConfig({ ...fixed, [v.name]: v.kind.format(v.default as {}) })).toEqual(loadConfig(fixed));
    },
  );

  it('when help is printed, then every variable has a line with its default and its meaning, without Markdown', () => {
    const help = describeConfig();
    const lines = help.split('\n');
    for (const v of table) {
      const shown = defaultText(v).replaceAll('`', '');
      const at = lines.indexOf(`  ${v.name} ${shown.startsWith('(') ? shown : `(default ${shown})`}`);
      expect(at, v.name).toBeGreaterThan(-1);
      const meaning = lines.slice(at + 1).findIndex((l) => !l.startsWith('      '));
      const text = lines
        .slice(at + 1, at + 1 + meaning)
        .map((l) => l.trim())
        .join(' ');
      expect(text).toBe(v.description.replaceAll('`', '').replaceAll('**', ''));
    }
    expect(lines.every((l) => l.length <= 100)).toBe(true);
    expect(help).not.toContain('`');
    expect(lines).toContain('  PORT (default 8080)');
    expect(lines).toContain('  DATABASE_URL (unset)');
  });

  it('when a variable has a default that depends on others, then it must say it in words', () => {
    const derived: Variable<'x', string> = {
      name: 'X',
      key: 'x',
      kind: text,
      default: () => 'computed',
      description: 'A test variable.',
      production: 'Leave it.',
    };
    expect(() => defaultText(derived)).toThrow('X needs a defaultText');
    expect(defaultText({ ...derived, defaultText: '(computed)' })).toBe('(computed)');
    expect(() => defaultOf('publicBaseUrl')).toThrow('no fixed default');
    expect(defaultOf('assetMaxBytes')).toBe(20 * MiB);
  });

  it('when the summary is made, then it lists every variable, and of a secret only whether it is set', () => {
    const secrets: Record<string, string> = {
      DATABASE_URL: 'postgres://app:db-password-1@db/content',
      REDIS_URL: 'redis://:redis-password-2@cache:6379',
      BOOTSTRAP_ADMIN_TOKEN: 'bootstrap-token-value-3',
      SESSION_SECRET: 'session-secret-value-4-'.padEnd(40, 'x'),
      WEBHOOK_SECRET_KEY: 'webhook-key-value-5-'.padEnd(40, 'y'),
    };
    expect(table.filter((v) => v.secret).map((v) => v.name)).toEqual(Object.keys(secrets));
    const summary = configSummary(loadConfig({ ...secrets, WEBHOOK_TIMEOUT: '2s', ASSET_MAX_BYTES: '5MB' }));
    expect(Object.keys(summary)).toEqual(table.map((v) => v.name));
    for (const name of Object.keys(secrets)) expect(summary[name]).toBe('(set)');
    const text = JSON.stringify(summary);
    for (const secret of Object.values(secrets)) expect(text).not.toContain(secret.slice(0, 16));
    expect(text).not.toContain('password');
    expect(summary).toMatchObject({ PORT: '8080', WEBHOOK_TIMEOUT: '2s', ASSET_MAX_BYTES: '5000000' });

    const unset = configSummary(loadConfig({}));
    expect(unset).toMatchObject({ DATABASE_URL: '(unset)', BOOTSTRAP_ADMIN_TOKEN: '(unset)', SESSION_SECRET: '(set)' });
  });
});
