import { randomBytes } from 'node:crypto';
import { parseInstant } from './domain/timestamps.ts';
import * as kinds from './configValues.ts';
import { formatDuration, type Kind, type TrustProxy } from './configValues.ts';

// The only reader of process.env. Everything else receives the frozen Config built here.
//
// VARIABLES is the one table of the configuration: the Config type, parsing, `--help`, the
// start-up summary, the table in docs/deployment.md (`npm run generate`) and the tests' scrub of
// inherited variables are all made from it.

export { DAY, GiB, HOUR, KiB, MiB, MILLISECOND, MINUTE, SECOND } from './configValues.ts';
export type { TrustProxy } from './configValues.ts';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const MIN_KEY_LENGTH = 32;

/** The value of a variable read before the one asking (the table is read in order). */
export type ValueOf = <T>(variable: Variable<string, T>) => T;

export interface Variable<K extends string, T> {
  /** The environment variable. */
  readonly name: string;
  /** The Config property. */
  readonly key: K;
  readonly kind: Kind<NonNullable<T>>;
  /** The value when unset; a function when it depends on other variables or must be fresh. */
  readonly default: T | ((valueOf: ValueOf) => T);
  /** The default as written in `--help` and the docs (Markdown), when `kind.format` cannot say it. */
  readonly defaultText?: string;
  /** What it does (Markdown; `--help` prints it without the backticks). */
  readonly description: string;
  /** Advice for a production deployment (Markdown), for docs/deployment.md. */
  readonly production: string;
  /** Never printed: the summary says only whether it is set. */
  readonly secret?: true;
  /** A rule involving other variables: the problem, or undefined when the value is fine. */
  check?(value: NonNullable<T>, valueOf: ValueOf): string | undefined;
  /** Something worth logging at start about this value. */
  warning?(value: T): string | undefined;
  /** Logged at start when the variable is not set. */
  readonly unsetWarning?: string;
}

// The value type comes from the kind alone; an optional variable's default is undefined.
function variable<const K extends string, T extends {}>(
  spec: Variable<K, NoInfer<T>> & { kind: Kind<T> },
): Variable<K, T> {
  return spec;
}
function optional<const K extends string, T extends {}>(
  spec: Omit<Variable<K, NoInfer<T> | undefined>, 'default'> & { kind: Kind<T> },
): Variable<K, T | undefined> {
  return { ...spec, default: undefined };
}

// Variables that others' defaults and rules read.
const PORT = variable({
  name: 'PORT',
  key: 'port',
  kind: kinds.port,
  default: 8080,
  description: 'TCP port to listen on (`0`: any free port).',
  production: 'The port the load balancer targets.',
});
const HOST = variable({
  name: 'HOST',
  key: 'host',
  kind: kinds.text,
  default: '127.0.0.1',
  description: 'Address to listen on (`0.0.0.0` or `::` for all interfaces).',
  production: '`0.0.0.0` (or the private interface) so the load balancer can reach it.',
});
const DATABASE_URL = optional({
  name: 'DATABASE_URL',
  key: 'databaseUrl',
  kind: kinds.url(['postgres:', 'postgresql:']),
  secret: true,
  description: 'PostgreSQL connection string; unset: embedded PGlite in `DATA_DIR/pglite`.',
  production: "**Required with several instances** (PGlite is one process's database).",
});
const NODE_ENV = optional({
  name: 'NODE_ENV',
  key: 'nodeEnv',
  kind: kinds.text,
  description: '`production` turns demo data off by default (`SEED_DEMO_DATA`); no other effect on the service.',
  production: '`production`.',
});
const WEBHOOK_TIMEOUT = variable({
  name: 'WEBHOOK_TIMEOUT',
  key: 'webhookTimeoutMs',
  kind: kinds.duration,
  default: 5 * kinds.SECOND,
  description: 'Time a webhook receiver has to answer with headers (DEC-HOOK-006).',
  production: 'Leave it.',
});
const REQUEST_TIMEOUT = variable({
  name: 'REQUEST_TIMEOUT',
  key: 'requestTimeoutMs',
  kind: kinds.wholeSeconds,
  // Slow or stalled clients (issue 18): a 20 MiB upload at 1 MB/s fits.
  default: 30 * kinds.SECOND,
  description:
    'Time a client has to send a whole request, headers and body (uploads included); then the connection is closed (whole seconds).',
  production: 'Leave it, or raise it when clients upload large assets over slow links (20 MiB at 1 MB/s takes 20 s).',
});

/** Every environment variable the service reads, in the order they are read and listed. */
export const VARIABLES = [
  PORT,
  HOST,
  variable({
    name: 'PUBLIC_BASE_URL',
    key: 'publicBaseUrl',
    kind: kinds.baseUrl,
    default: (valueOf) => defaultBaseUrl(valueOf(HOST), valueOf(PORT)),
    defaultText: '`http://HOST:PORT/api`',
    description: 'Public base URL, used in `resourceUri`, `Location` and asset `url` values.',
    production:
      "**Required with several instances**: the load balancer's URL, the same on every instance. Otherwise each instance names itself in webhook `resourceUri`s and `Location` headers.",
    warning: (value) =>
      value.endsWith('/api')
        ? undefined
        : `PUBLIC_BASE_URL ${value} does not end in /api, as the interface's base address does`,
  }),
  DATABASE_URL,
  variable({
    name: 'DATA_DIR',
    key: 'dataDir',
    kind: kinds.text,
    default: './data',
    description: 'Directory for the embedded database and uploaded assets; `:memory:` keeps all in memory.',
    production:
      'A volume **shared by every instance** (NFS, EFS, a CSI volume with ReadWriteMany): asset files are written here by the instance that received the upload and read by whichever serves the download.',
  }),
  optional({
    name: 'REDIS_URL',
    key: 'redisUrl',
    kind: kinds.url(['redis:', 'rediss:']),
    secret: true,
    description: 'Redis for rate limits shared by several instances; unset: in-memory limits.',
    production:
      'Set it with several instances, or the limit holds per instance (see [Redis](#what-redis-holds-and-what-happens-when-it-is-down)).',
  }),
  optional({
    name: 'BOOTSTRAP_ADMIN_TOKEN',
    key: 'bootstrapAdminToken',
    kind: kinds.text,
    secret: true,
    description: 'When set, a super-admin token with exactly this value exists at start.',
    production:
      'A long random value from the secret store; idempotent, so every instance may carry it. Only its hash is stored. Remove it once real admin tokens exist, if you like: the token stays until deleted.',
    warning: (value) =>
      value !== undefined && value.length < 16
        ? 'BOOTSTRAP_ADMIN_TOKEN is shorter than 16 characters: anyone who guesses it is super admin'
        : undefined,
  }),
  NODE_ENV,
  variable({
    name: 'SEED_DEMO_DATA',
    key: 'seedDemoData',
    kind: kinds.boolean,
    // Demo data (with a super-admin token) belongs in the quick start's embedded store, never by
    // default in a database someone runs or an environment that calls itself production.
    default: (valueOf) => valueOf(DATABASE_URL) === undefined && valueOf(NODE_ENV) !== 'production',
    defaultText: '`true`; `false` with `DATABASE_URL` or `NODE_ENV=production`',
    description:
      'Load demo accounts, users, tokens (a super admin among them), items and a few images (assets) into an empty store at start; on later starts the tokens the seed made (flagged in storage, never one made through the API) get new values, printed to stdout under a warning banner. `false`: nothing is seeded, and the demo tokens and users of an earlier seed are deleted, so no printed demo credential works any more. Set `SEED_DEMO_DATA=true` to seed also into PostgreSQL or with `NODE_ENV=production`.',
    production: '`false` (the default with `DATABASE_URL` or `NODE_ENV=production`).',
  }),
  variable({
    name: 'SIZE_CAP_ENFORCED_FROM',
    key: 'sizeCapEnforcedFrom',
    kind: kinds.moment,
    default: parseInstant('2026-11-01T00:00')!, // Europe/Amsterdam, i.e. 2026-10-31T23:00:00.000Z
    defaultText: '`2026-11-01T00:00` (Europe/Amsterdam)',
    description:
      'From this moment a list `size` above 2000 is a 400 (before: 200 with 2000 items). ISO-8601; without an offset, Europe/Amsterdam time.',
    production: 'Leave it.',
  }),
  variable({
    name: 'TRUST_PROXY',
    key: 'trustProxy',
    kind: kinds.trustProxy,
    default: false,
    description:
      'Whether `X-Forwarded-For` counts: `false`, `true`, a number of proxy hops, or addresses/subnets/`loopback,linklocal,uniquelocal`.',
    production:
      "The load balancer's addresses or subnet (or its hop count). The rate limit is per client IP: with `false` every client behind the balancer is one IP; with `true` any client can mint fresh buckets by sending its own `X-Forwarded-For` (DEC-RATE-004).",
  }),
  variable({
    name: 'LOG_LEVEL',
    key: 'logLevel',
    kind: kinds.oneOf(LOG_LEVELS),
    default: 'info',
    description: `One of ${LOG_LEVELS.join(', ')}.`,
    production: '`info`. Logs are JSON lines on stdout; secrets and token values are redacted.',
  }),
  variable({
    name: 'ALLOW_INSECURE_CALLBACKS',
    key: 'allowInsecureCallbacks',
    kind: kinds.boolean,
    default: false,
    description:
      'Webhook dev mode: allow `http:` and loopback webhook callback URLs (DEC-HOOK-002), so deliveries reach a receiver on `localhost` (`content-webhooks listen`, docs/guides/receiving-webhooks.md). Refused with `NODE_ENV=production`.',
    production: '`false` (development and tests only; start fails if it is on with `NODE_ENV=production`).',
    // A production service must never be talked into posting to its own loopback interface.
    check: (value, valueOf) =>
      value && valueOf(NODE_ENV) === 'production'
        ? 'expected false with NODE_ENV=production: the webhook dev mode lets tokens point deliveries at loopback addresses'
        : undefined,
    warning: (value) =>
      value ? 'ALLOW_INSECURE_CALLBACKS is on: webhooks may target http: and private addresses' : undefined,
  }),
  variable({
    name: 'WEBHOOK_RETRY_SCHEDULE',
    key: 'webhookRetryScheduleMs',
    kind: kinds.durationList,
    default: Object.freeze([5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 24 * 3600].map((s) => s * kinds.SECOND)),
    description:
      'Webhook retries: comma-separated durations (`ms`, `s`, `m`, `h`, `d`), each a delay after a failed attempt, except the last: when the final attempt happens, counted from the first (DEC-HOOK-005).',
    production: 'Leave it.',
  }),
  WEBHOOK_TIMEOUT,
  optional({
    name: 'WEBHOOK_LEASE',
    key: 'webhookLeaseMs',
    kind: kinds.duration,
    defaultText: '`30s` (or 2 × `WEBHOOK_TIMEOUT` + 10 s)',
    description:
      'How long an instance holds a claimed webhook delivery; after a crash another instance re-sends it when the lease runs out. Must be longer than `WEBHOOK_TIMEOUT`.',
    production: 'Leave it: the default is how long a receiver may wait for a delivery whose sender crashed.',
    check: (value, valueOf) =>
      value <= valueOf(WEBHOOK_TIMEOUT)
        ? `expected a duration longer than WEBHOOK_TIMEOUT (${formatDuration(valueOf(WEBHOOK_TIMEOUT))}): a lease shorter than an attempt would let another instance send the delivery while it is still in flight`
        : undefined,
  }),
  variable({
    name: 'ASSET_MAX_BYTES',
    key: 'assetMaxBytes',
    kind: kinds.bytes,
    default: 20 * kinds.MiB,
    description: 'Largest asset upload (bytes, or with `B`, `KB`, `MB`, `GB`, `KiB`, `MiB`, `GiB`).',
    production: "As needed; the load balancer's body limit must be at least this.",
  }),
  // The resizer's limits (assets/resizer.ts takes its defaults from here).
  variable({
    name: 'ASSET_CACHE_BYTES',
    key: 'assetCacheBytes',
    kind: kinds.bytes,
    default: 64 * kinds.MiB,
    description: 'Memory for resized image variants, an LRU in each instance (a unit as `ASSET_MAX_BYTES`).',
    production:
      "Raise it on instances with memory to spare when the same variants are asked often (`X-Asset-Cache: hit`); it adds to the instance's RSS.",
  }),
  variable({
    name: 'ASSET_RESIZE_MAX_PIXELS',
    key: 'assetResizeMaxPixels',
    kind: kinds.integer(1, 1_000_000_000_000),
    // Issue 30: 12 resizes of a 99.8-megapixel PNG held 1.2 GiB. 50 megapixels still takes a
    // 45-megapixel camera's photo (8,256 × 5,504).
    default: 50_000_000,
    description:
      'Images with more pixels (all frames together) are not resized: 422 at once (DEC-ASSET-009); the original is still served.',
    production:
      'Leave it: an interlaced PNG is decoded whole, 3 to 8 bytes per pixel, so one resize of a 50-megapixel source can hold up to 400 MB while it runs.',
  }),
  variable({
    name: 'ASSET_RESIZE_CONCURRENCY',
    key: 'assetResizeConcurrency',
    kind: kinds.integer(1, 64),
    default: 2,
    description: 'Resizes running at once in an instance (1…64); more wait their turn, in arrival order.',
    production:
      "At most the instance's cores. Memory bound while a burst lasts: concurrency × the largest source (see `ASSET_RESIZE_MAX_PIXELS`).",
  }),
  variable({
    name: 'ASSET_RESIZE_QUEUE_TIMEOUT',
    key: 'assetResizeQueueTimeoutMs',
    kind: kinds.duration,
    default: 10 * kinds.SECOND,
    description:
      'How long a resize may wait for its turn; then the request is a 503 with `Retry-After` (DEC-ASSET-009).',
    production: 'Leave it; cached variants and originals never wait.',
  }),
  variable({
    name: 'ASSET_RESIZE_TIMEOUT',
    key: 'assetResizeTimeoutMs',
    kind: kinds.wholeSeconds,
    default: 20 * kinds.SECOND,
    description: 'A resize taking longer is abandoned with a 422 (whole seconds).',
    production: 'Leave it.',
  }),
  // Read by glibc, not by the service: listed so that --help and the docs name it, and so that a
  // start without it can say what it costs.
  optional({
    name: 'MALLOC_ARENA_MAX',
    key: 'mallocArenaMax',
    kind: kinds.integer(1, 1024),
    defaultText: "(unset: glibc's default, 8 per core)",
    description:
      "Memory pools of the C library's allocator (glibc on Linux; set in the environment the process starts with). `2` lets the memory of a burst of image resizes go back to the system afterwards; unset, most of it stays.",
    production:
      '`2` on Linux: after a burst of 12 resizes of a 50-megapixel PNG nothing stayed with it, 49 MiB without (`resizeBurst.test.ts`, [security](security.md)). Other allocators and platforms ignore it.',
    warning: (value) =>
      value === undefined && process.platform === 'linux'
        ? 'MALLOC_ARENA_MAX is not set: memory used by image resizing is not returned to the system after a burst (set it to 2)'
        : undefined,
  }),
  variable({
    name: 'SESSION_SECRET',
    key: 'sessionSecret',
    kind: kinds.key(MIN_KEY_LENGTH),
    secret: true,
    default: () => randomBytes(32).toString('base64url'),
    defaultText: '(random per process)',
    description: `Key of session tokens (\`POST /auth/signin\`), at least ${MIN_KEY_LENGTH} characters; unset: random, so sessions end at restart.`,
    production:
      "**The same on every instance**, from the secret store: a session signed in through one instance is checked by another. Unset, each instance has its own random key and rejects the others' sessions (and all sessions end at a restart). Changing it ends every session.",
    unsetWarning:
      'SESSION_SECRET is not set: using a random secret, so session tokens end at restart and other instances reject them',
  }),
  // Not derived from SESSION_SECRET: rotating that (to end sessions) must not make every stored
  // signing secret unreadable; and a random default would lose them all at restart.
  optional({
    name: 'WEBHOOK_SECRET_KEY',
    key: 'webhookSecretKey',
    kind: kinds.key(MIN_KEY_LENGTH),
    secret: true,
    description: `Key encrypting webhook signing secrets at rest (AES-256-GCM), at least ${MIN_KEY_LENGTH} characters; unset: stored unencrypted.`,
    production:
      "**The same on every instance**, from the secret store, and kept with the backups: a secret sealed by one instance is opened by whichever instance's worker sends the delivery. Losing it makes every stored signing secret unreadable (deliveries then fail until `rotate-secret`).",
    unsetWarning: 'WEBHOOK_SECRET_KEY is not set: webhook signing secrets are stored unencrypted',
  }),
  variable({
    name: 'RATE_LIMIT_ENABLED',
    key: 'rateLimitEnabled',
    kind: kinds.boolean,
    default: true,
    description:
      'Per-IP rate limiting of the list endpoints, and the throttle of failed sign-ins and refreshes (DEC-AUTH-016).',
    production: '`true` (turn off for benchmarks only).',
    warning: (value) =>
      value
        ? undefined
        : 'RATE_LIMIT_ENABLED is false: list endpoints are not rate limited and failed sign-ins are not throttled',
  }),
  variable({
    name: 'LIST_CACHE_BYTES',
    key: 'listCacheBytes',
    kind: kinds.bytesOrNone,
    default: 64 * kinds.MiB,
    description:
      'Memory for list answers kept in each instance and sent again while no item, ontology or organisation has changed (a unit as `ASSET_MAX_BYTES`); `0` keeps none.',
    production:
      "Leave it; raise it when many clients poll many different pages. It adds to the instance's RSS. Entries above an eighth of it (a 2000-event page is about 11.6 MB) are not kept; keys and a per-entry overhead count too.",
  }),
  REQUEST_TIMEOUT,
  variable({
    name: 'HEADERS_TIMEOUT',
    key: 'headersTimeoutMs',
    kind: kinds.wholeSeconds,
    default: (valueOf) => Math.min(10 * kinds.SECOND, valueOf(REQUEST_TIMEOUT)),
    defaultText: '`10s` (or `REQUEST_TIMEOUT` when shorter)',
    description: 'Time a client has to send the request line and headers; at most `REQUEST_TIMEOUT`.',
    production: 'Leave it.',
    check: (value, valueOf) =>
      value > valueOf(REQUEST_TIMEOUT)
        ? `expected at most REQUEST_TIMEOUT (${formatDuration(valueOf(REQUEST_TIMEOUT))})`
        : undefined,
  }),
  variable({
    name: 'JSON_BODY_TIMEOUT',
    key: 'jsonBodyTimeoutMs',
    kind: kinds.duration,
    // Issue 30: 200 stalled 1 MiB bodies were held for the whole REQUEST_TIMEOUT. 1 MiB in 10 s
    // is 100 KB/s, slower than any link that uses this API.
    default: (valueOf) => Math.min(10 * kinds.SECOND, valueOf(REQUEST_TIMEOUT)),
    defaultText: '`10s` (or `REQUEST_TIMEOUT` when shorter)',
    description:
      'Time a JSON body (at most 1 MiB) has to arrive after its headers; then the connection is closed. Uploads have `REQUEST_TIMEOUT`.',
    production: 'Leave it.',
    check: (value, valueOf) =>
      value > valueOf(REQUEST_TIMEOUT)
        ? `expected at most REQUEST_TIMEOUT (${formatDuration(valueOf(REQUEST_TIMEOUT))})`
        : undefined,
  }),
  variable({
    name: 'MAX_CONNECTIONS',
    key: 'maxConnections',
    kind: kinds.integer(0, 1_000_000),
    default: 2048,
    description: 'Open connections per instance; new ones past it are closed at once (`0`: no cap).',
    production: "Above the load balancer's connection pool towards the instance.",
  }),
  variable({
    name: 'MAX_CONNECTIONS_PER_IP',
    key: 'maxConnectionsPerIp',
    kind: kinds.integer(0, 1_000_000),
    default: 256,
    description:
      "Open connections per client address, the TCP peer (behind a proxy: the proxy's); new ones past it are closed at once (`0`: no cap).",
    production:
      "Behind a load balancer every connection comes from its addresses: set it above the balancer's pool per instance, or `0`, and cap per client at the balancer.",
  }),
  variable({
    name: 'PRE_AUTH_BODY_MAX_BYTES',
    key: 'preAuthBodyMaxBytes',
    kind: kinds.bytes,
    default: 16 * kinds.KiB,
    description:
      'Largest JSON body of the operations that take no bearer (sign-in, refresh); every other body is read only once its bearer is checked, and a request whose bearer fails gets its 401 with the body unread.',
    production: 'Leave it.',
  }),
  optional({
    name: 'FEEDS_FILE',
    key: 'feedsFile',
    kind: kinds.text,
    defaultText: '(the demo `feeds.yaml`)',
    description: 'YAML file of the inbound partner feeds (format: `reference-impl/src/feeds/feeds.yaml`).',
    production: "Your partners' feeds; the same file on every instance.",
  }),
] as const;

type Variables = (typeof VARIABLES)[number];
// The same rows, for code that treats every variable alike.
const TABLE: readonly Variable<string, unknown>[] = VARIABLES;
type ValueOfVariable<V> = V extends Variable<string, infer T> ? T : never;

/** The settings, one per variable, under its `key`. */
export type Settings = { readonly [V in Variables as V['key']]: ValueOfVariable<V> };

export interface Config extends Settings {
  /** Things worth logging at start (for example a generated session secret). */
  readonly warnings: readonly string[];
}

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
  const values = new Map<Variable<string, unknown>, unknown>();
  const valueOf: ValueOf = <T>(variable: Variable<string, T>): T => {
    if (!values.has(variable)) throw new Error(`${variable.name} is read before it is loaded: reorder VARIABLES`);
    return values.get(variable) as T;
  };

  for (const variable of TABLE) {
    // An empty value counts as unset (`FOO=` in a compose file).
    const text = env[variable.name]?.trim() || undefined;
    const fallback = () => (typeof variable.default === 'function' ? variable.default(valueOf) : variable.default);
    let value: unknown;
    if (text === undefined) {
      value = fallback();
      if (variable.unsetWarning !== undefined) warnings.push(variable.unsetWarning);
    } else {
      try {
        const parsed = variable.kind.parse(text);
        const problem = variable.check?.(parsed, valueOf);
        if (problem !== undefined) throw new Error(problem);
        value = parsed;
      } catch (error) {
        problems.push({
          variable: variable.name,
          message: `${(error as Error).message} (received: ${JSON.stringify(text)})`,
        });
        value = fallback();
      }
    }
    const warning = variable.warning?.(value);
    if (warning !== undefined) warnings.push(warning);
    values.set(variable, value);
  }

  if (problems.length > 0) throw new ConfigError(problems);
  // Each value was parsed by its variable's kind or is its default: the Settings type holds.
  const settings = Object.fromEntries([...values].map(([variable, value]) => [variable.key, value])) as Settings;
  return Object.freeze({ ...settings, warnings: Object.freeze(warnings) });
}

/** The default of a setting that has a fixed one, for modules that also run without a Config. */
export function defaultOf<K extends keyof Settings>(key: K): Settings[K] {
  const found = TABLE.find((v) => v.key === key);
  if (found === undefined || typeof found.default === 'function') throw new Error(`${key} has no fixed default`);
  return found.default as Settings[K];
}

/** The default of a variable as written in `--help` and the docs (Markdown). */
export function defaultText(variable: Variable<string, unknown>): string {
  if (variable.defaultText !== undefined) return variable.defaultText;
  if (variable.default === undefined || variable.default === null) return '(unset)';
  if (typeof variable.default === 'function') throw new Error(`${variable.name} needs a defaultText`);
  return `\`${variable.kind.format(variable.default)}\``;
}

const plain = (markdown: string) => markdown.replaceAll('`', '').replaceAll('**', '');

/** The `--help` text: every variable, its default and its meaning. */
export function describeConfig(): string {
  const blocks = TABLE.map((v) =>
    [`  ${v.name} ${helpDefault(v)}`, ...wrap(plain(v.description), 92, '      ')].join('\n'),
  );
  return ['Configuration (environment variables; an empty value counts as unset):', '', ...blocks, ''].join('\n');
}

/** `(default 8080)`; a default that is no value, such as `(unset)`, as it is. */
function helpDefault(variable: Variable<string, unknown>): string {
  const text = plain(defaultText(variable));
  return text.startsWith('(') ? text : `(default ${text})`;
}

/** `text` in lines of at most `width` characters (longer words stay whole), each after `indent`. */
function wrap(text: string, width: number, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, indent + line];
}

/** For the start-up log: every variable's value as it would be written; of a secret only whether it is set. */
export function configSummary(config: Config): Record<string, string> {
  return Object.fromEntries(
    TABLE.map((v) => {
      const value = config[v.key as keyof Settings];
      const shown = value === undefined ? '(unset)' : v.secret ? '(set)' : v.kind.format(value);
      return [v.name, shown];
    }),
  );
}

function defaultBaseUrl(host: string, port: number): string {
  // A wildcard listen address is no address to call: name the loopback instead.
  const callable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${callable.includes(':') ? `[${callable}]` : callable}:${port}/api`;
}
