import { randomBytes } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { formatTimestamp, parseInstant } from './domain/timestamps.ts';

// The only reader of process.env. Everything else receives the frozen Config built here.

export const MILLISECOND = 1;
export const SECOND = 1000 * MILLISECOND;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const KiB = 1024;
export const MiB = 1024 * KiB;
export const GiB = 1024 * MiB;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Express's `trust proxy` setting: off, on, a number of hops, or addresses/subnets/names. */
export type TrustProxy = boolean | number | string;

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Base of `resourceUri` and `Location` values, without a trailing slash (ends in `/api`). */
  readonly publicBaseUrl: string;
  /** PostgreSQL connection string; undefined means embedded PGlite in `dataDir`. */
  readonly databaseUrl: string | undefined;
  /** Directory of the embedded database and uploaded files; `:memory:` keeps everything in memory. */
  readonly dataDir: string;
  /** Redis for shared rate limits; undefined means per-process memory. */
  readonly redisUrl: string | undefined;
  readonly bootstrapAdminToken: string | undefined;
  readonly seedDemoData: boolean;
  /** From this instant a `size` above 2000 is a 400 instead of a silent cap. */
  readonly sizeCapEnforcedFrom: Date;
  readonly trustProxy: TrustProxy;
  readonly logLevel: LogLevel;
  /** Skips the callback address policy (DEC-HOOK-002); for local development only. */
  readonly allowInsecureCallbacks: boolean;
  /** Delays before each retry of a webhook delivery (DEC-HOOK-005). */
  readonly webhookRetryScheduleMs: readonly number[];
  /** Time a receiver has to send response headers (DEC-HOOK-006). */
  readonly webhookTimeoutMs: number;
  /**
   * How long a worker's claim on a delivery holds; after a crash the delivery is re-sent when it
   * runs out. Undefined: the worker's default (30 s, or 2 × the timeout + 10 s when longer).
   */
  readonly webhookLeaseMs: number | undefined;
  readonly assetMaxBytes: number;
  /** Memory for resized image variants (an LRU per instance). */
  readonly assetCacheBytes: number;
  /** Sources above this many pixels are not resized (422; DEC-ASSET-009). */
  readonly assetResizeMaxPixels: number;
  /** Resizes running at once per instance; more wait their turn. */
  readonly assetResizeConcurrency: number;
  /** A resize taking longer is abandoned (422); whole seconds. */
  readonly assetResizeTimeoutMs: number;
  readonly sessionSecret: string;
  /** Key that encrypts webhook signing secrets at rest; undefined: they are stored unencrypted. */
  readonly webhookSecretKey: string | undefined;
  readonly rateLimitEnabled: boolean;
  /** Memory for list answers sent again while the content is unchanged (per instance); 0: none kept. */
  readonly listCacheBytes: number;
  /** YAML file of the inbound feeds; undefined: the shipped demo file (feeds/feeds.yaml). */
  readonly feedsFile: string | undefined;
  /** Time a client has to send a whole request, headers and body; then the connection is closed. */
  readonly requestTimeoutMs: number;
  /** Time a client has to send the request line and headers; at most requestTimeoutMs. */
  readonly headersTimeoutMs: number;
  /** Open connections per instance; past it new ones are closed at once. 0: no cap. */
  readonly maxConnections: number;
  /** Open connections per client address (the TCP peer, a proxy's when behind one); 0: no cap. */
  readonly maxConnectionsPerIp: number;
  /** Largest body read before the caller is known: the operations without a bearer (sign-in, refresh). */
  readonly preAuthBodyMaxBytes: number;
  /** Things worth logging at start (for example a generated session secret). */
  readonly warnings: readonly string[];
}

// Every default, with its unit.
export const DEFAULTS = {
  port: 8080,
  host: '127.0.0.1',
  dataDir: './data',
  sizeCapEnforcedFrom: '2026-11-01T00:00', // Europe/Amsterdam, i.e. 2026-10-31T23:00:00.000Z
  trustProxy: false,
  logLevel: 'info',
  allowInsecureCallbacks: false,
  webhookRetryScheduleMs: [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 24 * HOUR],
  webhookTimeoutMs: 5 * SECOND,
  assetMaxBytes: 20 * MiB,
  // The resizer's limits (assets/resizer.ts RESIZER_DEFAULTS takes them from here).
  assetCacheBytes: 64 * MiB,
  assetResizeMaxPixels: 100_000_000,
  assetResizeConcurrency: 4,
  assetResizeTimeoutMs: 20 * SECOND,
  rateLimitEnabled: true,
  listCacheBytes: 64 * MiB,
  // Slow or stalled clients (issue 18): a 20 MiB upload at 1 MB/s fits in the request timeout.
  requestTimeoutMs: 30 * SECOND,
  headersTimeoutMs: 10 * SECOND,
  maxConnections: 2048,
  maxConnectionsPerIp: 256,
  preAuthBodyMaxBytes: 16 * KiB,
} as const satisfies Record<string, unknown>;

const MIN_SESSION_SECRET_LENGTH = 32;

interface Variable {
  name: string;
  defaultText: string;
  meaning: string;
}

/** Every environment variable the service reads, for `--help` and for the tests. */
export const VARIABLES: readonly Variable[] = [
  { name: 'PORT', defaultText: String(DEFAULTS.port), meaning: 'TCP port to listen on (0: any free port).' },
  { name: 'HOST', defaultText: DEFAULTS.host, meaning: 'Address to listen on (0.0.0.0 or :: for all interfaces).' },
  {
    name: 'PUBLIC_BASE_URL',
    defaultText: 'http://HOST:PORT/api',
    meaning: 'Public base URL, used in resourceUri and Location values.',
  },
  {
    name: 'DATABASE_URL',
    defaultText: '(unset)',
    meaning: 'PostgreSQL connection string; unset: embedded PGlite in DATA_DIR/pglite.',
  },
  {
    name: 'DATA_DIR',
    defaultText: DEFAULTS.dataDir,
    meaning: 'Directory for the embedded database and uploaded assets; ":memory:" keeps all in memory.',
  },
  {
    name: 'REDIS_URL',
    defaultText: '(unset)',
    meaning: 'Redis for rate limits shared by several instances; unset: in-memory limits.',
  },
  {
    name: 'BOOTSTRAP_ADMIN_TOKEN',
    defaultText: '(unset)',
    meaning: 'When set, a super-admin token with exactly this value exists at start.',
  },
  {
    name: 'SEED_DEMO_DATA',
    defaultText: 'true with the embedded store; false with DATABASE_URL',
    meaning:
      'Load demo accounts, tokens (among them a super admin) and items into an empty store at start; on later starts the demo tokens get new values.',
  },
  {
    name: 'SIZE_CAP_ENFORCED_FROM',
    defaultText: `${DEFAULTS.sizeCapEnforcedFrom} (Europe/Amsterdam)`,
    meaning:
      'From this moment a list size above 2000 is a 400 (before: 200 with 2000 items). ISO-8601; without offset Europe/Amsterdam.',
  },
  {
    name: 'TRUST_PROXY',
    defaultText: String(DEFAULTS.trustProxy),
    meaning:
      'Whether X-Forwarded-For counts: false, true, a number of proxy hops, or addresses/subnets/loopback,linklocal,uniquelocal.',
  },
  { name: 'LOG_LEVEL', defaultText: DEFAULTS.logLevel, meaning: `One of ${LOG_LEVELS.join(', ')}.` },
  {
    name: 'ALLOW_INSECURE_CALLBACKS',
    defaultText: String(DEFAULTS.allowInsecureCallbacks),
    meaning: 'Allow http: and private-address webhook callback URLs (local development only).',
  },
  {
    name: 'WEBHOOK_RETRY_SCHEDULE',
    defaultText: DEFAULTS.webhookRetryScheduleMs.map(formatDuration).join(','),
    meaning:
      'Webhook retries: comma-separated durations (ms, s, m, h, d), each a delay after a failed attempt, except the last: the time after the first attempt of the final one.',
  },
  {
    name: 'WEBHOOK_TIMEOUT',
    defaultText: formatDuration(DEFAULTS.webhookTimeoutMs),
    meaning: 'Time a webhook receiver has to answer with headers.',
  },
  {
    name: 'WEBHOOK_LEASE',
    defaultText: '30s (or 2 x WEBHOOK_TIMEOUT + 10s)',
    meaning:
      'How long an instance holds a claimed webhook delivery; after a crash another instance re-sends it when the lease runs out. Longer than WEBHOOK_TIMEOUT.',
  },
  {
    name: 'ASSET_MAX_BYTES',
    defaultText: '20MiB',
    meaning: 'Largest asset upload (bytes, or with B, KB, MB, GB, KiB, MiB, GiB).',
  },
  {
    name: 'ASSET_CACHE_BYTES',
    defaultText: '64MiB',
    meaning: 'Memory for resized image variants, per instance (bytes, or with a unit as ASSET_MAX_BYTES).',
  },
  {
    name: 'ASSET_RESIZE_MAX_PIXELS',
    defaultText: String(DEFAULTS.assetResizeMaxPixels),
    meaning: 'Images with more pixels (all frames) are not resized: 422 (DEC-ASSET-009); the original is still served.',
  },
  {
    name: 'ASSET_RESIZE_CONCURRENCY',
    defaultText: String(DEFAULTS.assetResizeConcurrency),
    meaning: 'Resizes running at once per instance (1…64); more wait their turn.',
  },
  {
    name: 'ASSET_RESIZE_TIMEOUT',
    defaultText: formatDuration(DEFAULTS.assetResizeTimeoutMs),
    meaning: 'A resize taking longer is abandoned with a 422 (whole seconds, at least 1s).',
  },
  {
    name: 'SESSION_SECRET',
    defaultText: '(random per process)',
    meaning: `Key of session tokens, at least ${MIN_SESSION_SECRET_LENGTH} characters; unset: random, so sessions end at restart.`,
  },
  {
    name: 'WEBHOOK_SECRET_KEY',
    defaultText: '(unset)',
    meaning: `Key encrypting webhook signing secrets at rest (AES-256-GCM), at least ${MIN_SESSION_SECRET_LENGTH} characters; the same on every instance; unset: stored unencrypted.`,
  },
  {
    name: 'RATE_LIMIT_ENABLED',
    defaultText: String(DEFAULTS.rateLimitEnabled),
    meaning:
      'Per-IP rate limiting of the list endpoints, and the throttle of failed sign-ins and refreshes (turn off for benchmarks only).',
  },
  {
    name: 'LIST_CACHE_BYTES',
    defaultText: '64MiB',
    meaning:
      'Memory for list answers, per instance, sent again while no item, ontology or organisation has changed (a unit as ASSET_MAX_BYTES; 0: none kept).',
  },
  {
    name: 'REQUEST_TIMEOUT',
    defaultText: formatDuration(DEFAULTS.requestTimeoutMs),
    meaning:
      'Time a client has to send a whole request, headers and body (uploads included); then the connection is closed.',
  },
  {
    name: 'HEADERS_TIMEOUT',
    defaultText: formatDuration(DEFAULTS.headersTimeoutMs),
    meaning: 'Time a client has to send the request line and headers; at most REQUEST_TIMEOUT.',
  },
  {
    name: 'MAX_CONNECTIONS',
    defaultText: String(DEFAULTS.maxConnections),
    meaning: 'Open connections per instance; new ones past it are closed at once (0: no cap).',
  },
  {
    name: 'MAX_CONNECTIONS_PER_IP',
    defaultText: String(DEFAULTS.maxConnectionsPerIp),
    meaning:
      "Open connections per client address, the TCP peer (behind a proxy: the proxy's); new ones past it are closed at once (0: no cap).",
  },
  {
    name: 'PRE_AUTH_BODY_MAX_BYTES',
    defaultText: '16KiB',
    meaning:
      'Largest JSON body of the operations that take no bearer (sign-in, refresh); every other body is read only after its bearer is checked.',
  },
  {
    name: 'FEEDS_FILE',
    defaultText: '(the demo feeds.yaml)',
    meaning: 'YAML file of the inbound partner feeds (format: reference-impl/src/feeds/feeds.yaml).',
  },
];

export class ConfigError extends Error {
  readonly problems: readonly { variable: string; message: string }[];

  constructor(problems: readonly { variable: string; message: string }[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p.variable}: ${p.message}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Builds the configuration from the environment. Throws one ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: { variable: string; message: string }[] = [];
  const warnings: string[] = [];

  // An empty value counts as unset (`FOO=` in a compose file).
  const raw = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  function read<T>(name: string, fallback: T, parse: (value: string) => T): T {
    const value = raw(name);
    if (value === undefined) return fallback;
    try {
      return parse(value);
    } catch (error) {
      problems.push({ variable: name, message: `${(error as Error).message} (received: ${JSON.stringify(value)})` });
      return fallback;
    }
  }

  const port = read('PORT', DEFAULTS.port, parsePort);
  const host = read<string>('HOST', DEFAULTS.host, (v) => v);
  const publicBaseUrl = read('PUBLIC_BASE_URL', defaultBaseUrl(host, port), parseBaseUrl);
  if (!publicBaseUrl.endsWith('/api'))
    warnings.push(`PUBLIC_BASE_URL ${publicBaseUrl} does not end in /api, as the interface's base address does`);
  const databaseUrl = read<string | undefined>('DATABASE_URL', undefined, (v) =>
    parseUrl(v, ['postgres:', 'postgresql:']),
  );
  const dataDir = read<string>('DATA_DIR', DEFAULTS.dataDir, (v) => v);
  const redisUrl = read<string | undefined>('REDIS_URL', undefined, (v) => parseUrl(v, ['redis:', 'rediss:']));
  const bootstrapAdminToken = read<string | undefined>('BOOTSTRAP_ADMIN_TOKEN', undefined, (v) => v);
  if (bootstrapAdminToken !== undefined && bootstrapAdminToken.length < 16) {
    warnings.push('BOOTSTRAP_ADMIN_TOKEN is shorter than 16 characters: anyone who guesses it is super admin');
  }
  // Demo data (with a super-admin token) belongs in the quick start's embedded store, never by
  // default in a database someone runs.
  const seedDemoData = read('SEED_DEMO_DATA', databaseUrl === undefined, parseBoolean);
  const sizeCapEnforcedFrom = read('SIZE_CAP_ENFORCED_FROM', parseInstant(DEFAULTS.sizeCapEnforcedFrom)!, parseMoment);
  const trustProxy = read<TrustProxy>('TRUST_PROXY', DEFAULTS.trustProxy, parseTrustProxy);
  const logLevel = read<LogLevel>('LOG_LEVEL', DEFAULTS.logLevel, parseLogLevel);
  const allowInsecureCallbacks = read('ALLOW_INSECURE_CALLBACKS', DEFAULTS.allowInsecureCallbacks, parseBoolean);
  if (allowInsecureCallbacks)
    warnings.push('ALLOW_INSECURE_CALLBACKS is on: webhooks may target http: and private addresses');
  const webhookRetryScheduleMs = read<readonly number[]>(
    'WEBHOOK_RETRY_SCHEDULE',
    DEFAULTS.webhookRetryScheduleMs,
    parseDurationList,
  );
  const webhookTimeoutMs = read('WEBHOOK_TIMEOUT', DEFAULTS.webhookTimeoutMs, parseDuration);
  const webhookLeaseMs = read<number | undefined>('WEBHOOK_LEASE', undefined, (v) => {
    const ms = parseDuration(v);
    if (ms <= webhookTimeoutMs)
      throw new Error(
        `expected a duration longer than WEBHOOK_TIMEOUT (${formatDuration(webhookTimeoutMs)}): a lease shorter than an attempt would let another instance send the delivery while it is still in flight`,
      );
    return ms;
  });
  const assetMaxBytes = read('ASSET_MAX_BYTES', DEFAULTS.assetMaxBytes, parseBytes);
  const assetCacheBytes = read('ASSET_CACHE_BYTES', DEFAULTS.assetCacheBytes, parseBytes);
  const assetResizeMaxPixels = read('ASSET_RESIZE_MAX_PIXELS', DEFAULTS.assetResizeMaxPixels, (v) =>
    parseInteger(v, 1, 1_000_000_000_000),
  );
  const assetResizeConcurrency = read('ASSET_RESIZE_CONCURRENCY', DEFAULTS.assetResizeConcurrency, (v) =>
    parseInteger(v, 1, 64),
  );
  const assetResizeTimeoutMs = read('ASSET_RESIZE_TIMEOUT', DEFAULTS.assetResizeTimeoutMs, (v) => {
    const ms = parseDuration(v);
    if (ms % SECOND !== 0) throw new Error('expected whole seconds, such as 20s or 1m');
    return ms;
  });
  let sessionSecret = read<string | undefined>('SESSION_SECRET', undefined, parseSessionSecret);
  if (sessionSecret === undefined) {
    sessionSecret = randomBytes(32).toString('base64url');
    warnings.push(
      'SESSION_SECRET is not set: using a random secret, so session tokens end at restart and other instances reject them',
    );
  }
  // Not derived from SESSION_SECRET: rotating that (to end sessions) must not make every stored
  // signing secret unreadable; and a random default would lose them all at restart.
  const webhookSecretKey = read<string | undefined>('WEBHOOK_SECRET_KEY', undefined, parseSessionSecret);
  if (webhookSecretKey === undefined)
    warnings.push('WEBHOOK_SECRET_KEY is not set: webhook signing secrets are stored unencrypted');
  const rateLimitEnabled = read('RATE_LIMIT_ENABLED', DEFAULTS.rateLimitEnabled, parseBoolean);
  if (!rateLimitEnabled)
    warnings.push(
      'RATE_LIMIT_ENABLED is false: list endpoints are not rate limited and failed sign-ins are not throttled',
    );
  const listCacheBytes = read('LIST_CACHE_BYTES', DEFAULTS.listCacheBytes, (v) =>
    /^0+\s*[a-z]*$/i.test(v) ? 0 : parseBytes(v),
  );
  const feedsFile = read<string | undefined>('FEEDS_FILE', undefined, (v) => v);
  const requestTimeoutMs = read('REQUEST_TIMEOUT', DEFAULTS.requestTimeoutMs, parseWholeSeconds);
  const headersTimeoutMs = read('HEADERS_TIMEOUT', DEFAULTS.headersTimeoutMs, (v) => {
    const ms = parseWholeSeconds(v);
    if (ms > requestTimeoutMs)
      throw new Error(`expected at most REQUEST_TIMEOUT (${formatDuration(requestTimeoutMs)})`);
    return ms;
  });
  const maxConnections = read('MAX_CONNECTIONS', DEFAULTS.maxConnections, (v) => parseInteger(v, 0, 1_000_000));
  const maxConnectionsPerIp = read('MAX_CONNECTIONS_PER_IP', DEFAULTS.maxConnectionsPerIp, (v) =>
    parseInteger(v, 0, 1_000_000),
  );
  const preAuthBodyMaxBytes = read('PRE_AUTH_BODY_MAX_BYTES', DEFAULTS.preAuthBodyMaxBytes, parseBytes);

  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    port,
    host,
    publicBaseUrl,
    databaseUrl,
    dataDir,
    redisUrl,
    bootstrapAdminToken,
    seedDemoData,
    sizeCapEnforcedFrom,
    trustProxy,
    logLevel,
    allowInsecureCallbacks,
    webhookRetryScheduleMs: Object.freeze([...webhookRetryScheduleMs]),
    webhookTimeoutMs,
    webhookLeaseMs,
    assetMaxBytes,
    assetCacheBytes,
    assetResizeMaxPixels,
    assetResizeConcurrency,
    assetResizeTimeoutMs,
    sessionSecret,
    webhookSecretKey,
    rateLimitEnabled,
    listCacheBytes,
    feedsFile,
    requestTimeoutMs,
    headersTimeoutMs: Math.min(headersTimeoutMs, requestTimeoutMs),
    maxConnections,
    maxConnectionsPerIp,
    preAuthBodyMaxBytes,
    warnings: Object.freeze(warnings),
  });
}

/** The `--help` text: every variable, its default and its meaning. */
export function describeConfig(): string {
  const width = Math.max(...VARIABLES.map((v) => v.name.length));
  const defaultWidth = Math.max(...VARIABLES.map((v) => v.defaultText.length));
  const lines = VARIABLES.map((v) => `  ${v.name.padEnd(width)}  ${v.defaultText.padEnd(defaultWidth)}  ${v.meaning}`);
  return [
    'Configuration (environment variables; an empty value counts as unset):',
    '',
    `  ${'NAME'.padEnd(width)}  ${'DEFAULT'.padEnd(defaultWidth)}  MEANING`,
    ...lines,
    '',
  ].join('\n');
}

function parsePort(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) throw new Error('expected an integer 0…65535');
  return Number(value);
}

function defaultBaseUrl(host: string, port: number): string {
  // A wildcard listen address is no address to call: name the loopback instead.
  const callable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${callable.includes(':') ? `[${callable}]` : callable}:${port}/api`;
}

function parseBaseUrl(value: string): string {
  const url = parseUrl(value, ['http:', 'https:']);
  const parsed = new URL(url);
  if (parsed.search !== '' || parsed.hash !== '') throw new Error('expected a URL without query or fragment');
  return url.replace(/\/+$/, '');
}

function parseUrl(value: string, protocols: readonly string[]): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`expected an absolute ${protocols.join(' or ')} URL`);
  }
  if (!protocols.includes(url.protocol)) throw new Error(`expected an absolute ${protocols.join(' or ')} URL`);
  return value;
}

export function parseBoolean(value: string): boolean {
  const lower = value.toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(lower)) return true;
  if (['false', '0', 'no', 'off'].includes(lower)) return false;
  throw new Error('expected true or false');
}

function parseMoment(value: string): Date {
  const date = parseInstant(value);
  if (date === undefined)
    throw new Error(
      'expected an ISO-8601 date or timestamp, for example 2026-11-01T00:00 (Europe/Amsterdam) or 2026-10-31T23:00:00Z',
    );
  return date;
}

function parseTrustProxy(value: string): TrustProxy {
  const lower = value.toLowerCase();
  if (lower === 'true' || lower === 'false') return lower === 'true';
  if (/^\d+$/.test(value)) return Number(value);
  for (const entry of value.split(',').map((s) => s.trim())) {
    if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) continue;
    if (isAddressOrSubnet(entry)) continue;
    throw new Error(
      `expected false, true, a number of hops, or a comma list of addresses, subnets and loopback/linklocal/uniquelocal; "${entry}" is none of these`,
    );
  }
  return value;
}

function isAddressOrSubnet(entry: string): boolean {
  const [address = '', range, ...rest] = entry.split('/');
  if (rest.length > 0 || !ipaddr.isValid(address)) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (ipaddr.parse(address).kind() === 'ipv4' ? 32 : 128);
  return ipaddr.IPv4.isValid(range) && ipaddr.parse(address).kind() === 'ipv4'; // address/netmask
}

function parseLogLevel(value: string): LogLevel {
  const lower = value.toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(lower)) throw new Error(`expected one of ${LOG_LEVELS.join(', ')}`);
  return lower as LogLevel;
}

const DURATION_UNITS: Record<string, number> = { ms: MILLISECOND, s: SECOND, m: MINUTE, h: HOUR, d: DAY };

/** `500ms`, `5s`, `5m`, `2h`, `1d`, `1.5h`: milliseconds. A bare number is refused as ambiguous. */
export function parseDuration(value: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/i.exec(value.trim());
  if (match === null) throw new Error('expected a duration such as 500ms, 5s, 5m, 2h or 1d');
  const ms = Math.round(Number(match[1]) * DURATION_UNITS[match[2]!.toLowerCase()]!);
  if (ms <= 0) throw new Error('expected a duration above zero');
  return ms;
}

function parseDurationList(value: string): number[] {
  const parts = value.split(',').map((s) => s.trim());
  if (parts.some((p) => p === '')) throw new Error('expected a comma-separated list of durations such as 5s,5m,30m');
  return parts.map(parseDuration);
}

/** The shortest exact form, with hours up to two days (`24h` reads better than `1d`). */
export function formatDuration(ms: number): string {
  if (ms >= 2 * DAY && ms % DAY === 0) return `${ms / DAY}d`;
  for (const [unit, size] of [
    ['h', HOUR],
    ['m', MINUTE],
    ['s', SECOND],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

const BYTE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1000,
  mb: 1000 ** 2,
  gb: 1000 ** 3,
  kib: KiB,
  mib: MiB,
  gib: GiB,
};

/** `1048576`, `20MiB`, `5MB`: bytes. */
export function parseBytes(value: string): number {
  const match = /^(\d+)\s*(b|kb|mb|gb|kib|mib|gib)?$/i.exec(value.trim());
  if (match === null) throw new Error('expected a number of bytes, optionally with B, KB, MB, GB, KiB, MiB or GiB');
  const bytes = Number(match[1]) * BYTE_UNITS[(match[2] ?? 'b').toLowerCase()]!;
  if (bytes < 1 || !Number.isSafeInteger(bytes)) throw new Error('expected at least 1 byte');
  return bytes;
}

function parseWholeSeconds(value: string): number {
  const ms = parseDuration(value);
  if (ms % SECOND !== 0 || ms < SECOND) throw new Error('expected whole seconds, at least 1s, such as 30s or 1m');
  return ms;
}

function parseInteger(value: string, min: number, max: number): number {
  if (!/^\d{1,13}$/.test(value) || Number(value) < min || Number(value) > max)
    throw new Error(`expected an integer ${min}…${max}`);
  return Number(value);
}

function parseSessionSecret(value: string): string {
  if (value.length < MIN_SESSION_SECRET_LENGTH)
    throw new Error(`expected at least ${MIN_SESSION_SECRET_LENGTH} characters`);
  return value;
}

/** For start-up logs: the configuration without secrets. */
export function configSummary(config: Config): Record<string, unknown> {
  return {
    port: config.port,
    host: config.host,
    publicBaseUrl: config.publicBaseUrl,
    storage: config.databaseUrl === undefined ? `pglite:${config.dataDir}` : 'postgres',
    rateLimits: config.redisUrl === undefined ? 'memory' : 'redis',
    sizeCapEnforcedFrom: formatTimestamp(config.sizeCapEnforcedFrom),
    trustProxy: config.trustProxy,
    logLevel: config.logLevel,
    seedDemoData: config.seedDemoData,
    rateLimitEnabled: config.rateLimitEnabled,
    listCacheBytes: config.listCacheBytes,
    bootstrapAdminToken: config.bootstrapAdminToken === undefined ? 'unset' : 'set',
  };
}
