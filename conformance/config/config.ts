// Turns argv + environment + config file into one typed, validated configuration. A ConfigError
// here means exit code 2: the suite could not run.

import { randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { ExpectedFailure } from '../engine/plan/expectedFailures.ts';
import { ExpectedFailuresError, loadExpectedFailures } from '../engine/plan/expectedFailures.ts';
import type { ResolvedVariants, TargetVariants } from '../model/variants.ts';
import { newRunId } from '../model/runId.ts';
import type { ConfigFile, OptionValues } from './configFile.ts';
import { ConfigFileError, DEFAULT_CONFIG_FILE, loadConfigFile } from './configFile.ts';
import type { OptionName, OptionSpec } from './options.ts';
import { OPTIONS } from './options.ts';
import { didYouMean } from './suggest.ts';

export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type Profile = 'consumer' | 'full' | 'certification';
export const PROFILES: readonly Profile[] = ['consumer', 'full', 'certification'];
export type ReporterName = 'console' | 'junit' | 'json' | 'html';
export const REPORTERS: readonly ReporterName[] = ['console', 'junit', 'json', 'html'];

export interface Tokens {
  consumer?: string;
  full?: string;
  admin?: string;
  /** Sign-in credentials of a first-party user (session checks, need `session`). */
  sessionUser?: string;
  sessionPassword?: string;
}

/** Timing of the webhook checks, in milliseconds (see --webhook-wait, --webhook-quiet, --webhook-slow). */
export interface WebhookTiming {
  /** Longest wait for an expected delivery or retry (returns as soon as it arrives). */
  waitMs: number;
  /** How long to watch for a delivery that must not come (always waited in full). */
  quietMs: number;
  /** How long the receiver holds an answer to provoke the target's timeout. */
  slowMs: number;
}

/** The suite's partner endpoint for an inbound feed (--feed-partner-*): what the target's feed fetches. */
export interface FeedPartnerConfig {
  /** Interface it listens on. */
  host: string;
  /** Fixed port: the vendor configures the feed's URL once. */
  port: number;
  /** https URL of the main document as the target fetches it (its path is served). */
  url: string;
  /** PEM files of its certificate and key; absent: a self-signed pair kept in the report dir. */
  certFile?: string;
  keyFile?: string;
}

/** feedInfoId of the sub-feed the sub-feed check uses, unless --feed-info-id names another. */
export const DEFAULT_FEED_INFO_ID = 'conformance';

export const DEFAULT_WEBHOOK_TIMING: WebhookTiming = { waitMs: 15_000, quietMs: 6_000, slowMs: 6_000 };
export const DEFAULT_ASSET_OVERSIZE_BYTES = 21 * 1024 * 1024;

export interface ConformanceConfig {
  baseUrl: string | undefined;
  tokens: Tokens;
  accountId: string | undefined;
  callbackUrl: string | undefined;
  receiver: { host: string; port: number; tls: boolean };
  profile: Profile;
  only: string[];
  skip: string[];
  /** Under full and certification, an INCOMPLETE verdict exits 0 instead of 3. */
  allowIncomplete: boolean;
  expectedFailuresFile: string | undefined;
  expectedFailures: ExpectedFailure[];
  reportDir: string;
  reporters: ReporterName[];
  seed: number;
  numRuns: number;
  timeoutMs: number;
  checkTimeoutMs: number;
  /** Most read-only checks at once; writing checks always run alone. */
  concurrency: number;
  retryAfterCapMs: number;
  /** Webhook check timing; absent: DEFAULT_WEBHOOK_TIMING. */
  webhook?: WebhookTiming;
  /** Bytes of the upload that must be refused with 413; 0: skip; absent: DEFAULT_ASSET_OVERSIZE_BYTES. */
  assetOversizeBytes?: number;
  /** The config file read (--config or ./content-conformance.yaml), if any. */
  configFile?: string;
  /** Variants the vendor declared (config file); they win over what discovery finds. */
  declaredVariants?: Partial<TargetVariants>;
  /** The variants in force, set by the runner after discovery (checks read them with variantsOf). */
  variants?: ResolvedVariants;
  /** An inbound feed of the suite's account (--feed-id), when given. */
  feedId?: string;
  /** The feed's name, first part of externalId (--feed-name); absent: learnt from the first imported item. */
  feedName?: string;
  /** The sub-feed of the feed the sub-feed check uses (--feed-info-id); absent: DEFAULT_FEED_INFO_ID. */
  feedInfoId?: string;
  /** The partner endpoint the suite serves for the feed (--feed-partner-port …); absent: no feed import checks. */
  feedPartner?: FeedPartnerConfig;
  /** GitHub Actions: the step summary file to append a Markdown verdict to, and the run's page. */
  stepSummary?: { file: string; runUrl?: string };
  specFile: string;
  requirementsFile: string;
  dryRun: boolean;
  color: boolean;
  /** List every skipped check under its reason (--verbose); otherwise one line per reason. */
  verbose?: boolean;
  runId: string;
}

export type Command =
  | { kind: 'run'; config: ConformanceConfig }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'verify-report'; file: string };

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  /** Every problem found (a run reports them all at once, not only the first). */
  readonly problems: readonly string[];
  constructor(problems: string | readonly string[]) {
    const list = typeof problems === 'string' ? [problems] : problems;
    super(
      list.length === 1 ? list[0] : `${list.length} configuration errors:\n${list.map((m) => `  - ${m}`).join('\n')}`,
    );
    this.problems = list;
  }
}

/** Runs one validation step; a ConfigError is collected in `problems` and `fallback` returned. */
function collecting(problems: string[]) {
  return <T>(step: () => T, fallback: T): T => {
    try {
      return step();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
      return fallback;
    }
  };
}

type Values = OptionValues;

function fromEnv(env: NodeJS.ProcessEnv): Values {
  const values: Values = {};
  for (const [name, spec] of Object.entries(OPTIONS) as [OptionName, OptionSpec][]) {
    const raw = spec.env ? env[spec.env] : undefined;
    if (raw === undefined || raw === '') continue;
    if (spec.type === 'boolean') values[name] = /^(1|true|yes|on)$/i.test(raw);
    else values[name] = spec.multiple ? [raw] : raw;
  }
  return values;
}

function integer(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number (received: ${raw})`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max} (received: ${raw})`);
  return value;
}

function httpUrl(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute URL (received: ${raw})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`${name} must be an http or https URL (received: ${raw})`);
  if (url.search || url.hash) throw new ConfigError(`${name} must not have a query or fragment (received: ${raw})`);
  return raw.replace(/\/+$/, '');
}

/** The config file named by --config / CONFORMANCE_CONFIG, else ./content-conformance.yaml if present. */
async function readConfigFile(given: string | undefined, env: NodeJS.ProcessEnv, cwd: string) {
  const file = given === undefined ? resolve(cwd, DEFAULT_CONFIG_FILE) : resolve(cwd, given);
  if (given === undefined && !existsSync(file)) return undefined;
  try {
    return await loadConfigFile(file, env);
  } catch (error) {
    if (error instanceof ConfigFileError) throw new ConfigError(error.problems);
    throw error;
  }
}

/** `unknown option --bse-url (did you mean --base-url?)` for each flag that is not an option. */
export function unknownFlags(argv: readonly string[]): string[] {
  const names = Object.keys(OPTIONS);
  const shorts = Object.values(OPTIONS as Record<string, OptionSpec>).flatMap((o) => (o.short ? [o.short] : []));
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg.startsWith('--')) {
      const [name = '', value] = arg.slice(2).split('=', 2);
      const spec = (OPTIONS as Record<string, OptionSpec>)[name];
      if (!spec) out.push(`unknown option --${name}${didYouMean(name, names, (n) => `--${n}`)}`);
      else if (spec.type === 'string' && value === undefined) i++; // its value may itself start with --
    } else if (/^-[^-]/.test(arg) && !shorts.includes(arg.slice(1, 2))) {
      out.push(`unknown option ${arg}${didYouMean(arg.slice(1), names, (n) => `--${n}`)}`);
    }
  }
  return out;
}

/** The argument parser's complaint in the suite's words: the flag, and what it needs. */
function parseArgsProblem(error: Error): string {
  const flag = /Option '(-[^ ']+)/.exec(error.message)?.[1];
  if (flag === undefined) return `${error.message} (see --help)`;
  if (/does not take an argument/.test(error.message)) return `${flag} takes no value (see --help)`;
  if (/ambiguous/.test(error.message))
    return `${flag} needs a value; to give one that starts with -, write ${flag}=VALUE`;
  if (/argument missing/.test(error.message)) return `${flag} needs a value (see --help)`;
  return `${error.message} (see --help)`;
}

function list(value: string | boolean | string[] | undefined): string[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  return items
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

export async function resolveConfig(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Command> {
  // A mistyped flag stops here, all of them named at once: its value would read as a command.
  const unknown = unknownFlags(argv);
  if (unknown.length > 0) throw new ConfigError(unknown);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: OPTIONS as Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }>,
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new ConfigError(parseArgsProblem(error as Error));
  }
  const cli = parsed.values as Values;
  if (cli.help) return { kind: 'help' };
  if (cli.version) return { kind: 'version' };
  const [command, ...rest] = parsed.positionals;
  if (command === 'verify-report') {
    if (rest.length !== 1) throw new ConfigError('usage: content-conformance verify-report FILE');
    return { kind: 'verify-report', file: resolve(cwd, rest[0]!) };
  }
  if (command !== undefined) throw new ConfigError(`unknown command ${JSON.stringify(command)} (see --help)`);

  const environment = fromEnv(env);
  const given = typeof cli.config === 'string' ? cli.config : (environment.config as string | undefined);
  const configFile: ConfigFile | undefined = await readConfigFile(given, env, cwd);
  const v: Values = { ...configFile?.values, ...environment, ...cli };
  const fromFile = (name: OptionName) => configFile !== undefined && !(name in environment) && !(name in cli);
  // Every problem below is collected, and all are reported together at the end.
  const problems: string[] = [];
  const attempt = collecting(problems);
  for (const [name, variable] of Object.entries(configFile?.unresolved ?? {}) as [OptionName, string][])
    if (fromFile(name))
      problems.push(`${configFile!.file}: ${name} names the environment variable ${variable}, which is not set`);
  /** How an error names an option: its flag, or its key in the config file when the value came from there. */
  const label = (name: OptionName) =>
    fromFile(name) && name in configFile!.values ? `${name} (in ${configFile!.file})` : `--${name}`;
  const str = (name: OptionName) => (typeof v[name] === 'string' ? (v[name] as string) : undefined);
  const int = (name: OptionName, fallback: number, min: number, max: number) =>
    attempt(() => integer(label(name), str(name), fallback, min, max), fallback);
  const url = (name: OptionName) => attempt(() => httpUrl(label(name), str(name)), undefined);
  const path = (name: OptionName, fallback: string) => {
    const given = str(name);
    return given === undefined ? fallback : isAbsolute(given) ? given : resolve(cwd, given);
  };

  const dryRun = v['dry-run'] === true;
  const baseUrl = url('base-url');
  if (str('base-url') === undefined && !dryRun)
    problems.push(`--base-url (or CONFORMANCE_BASE_URL, or base-url in ${DEFAULT_CONFIG_FILE}) is required`);

  const profile = (str('profile') ?? 'consumer') as Profile;
  if (!PROFILES.includes(profile))
    problems.push(
      `${label('profile')} must be one of ${PROFILES.join(', ')} (received: ${profile})${didYouMean(profile, PROFILES)}`,
    );

  const accountId = str('account-id');
  if (accountId !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(accountId))
    problems.push(`${label('account-id')} must be 1 to 64 characters of A-Z a-z 0-9 _ - (received: ${accountId})`);

  if ((str('session-user') === undefined) !== (str('session-password') === undefined))
    problems.push(
      '--session-user and --session-password go together (or CONFORMANCE_SESSION_USER and CONFORMANCE_SESSION_PASSWORD)',
    );

  const reporters = list(v.reporters);
  for (const r of reporters)
    if (!REPORTERS.includes(r as ReporterName))
      problems.push(
        `${label('reporters')} accepts ${REPORTERS.join(', ')} (received: ${r})${didYouMean(r, REPORTERS)}`,
      );

  const expectedFailuresFile = str('expected-failures') === undefined ? undefined : path('expected-failures', '');
  let expectedFailures: ExpectedFailure[] = [];
  if (expectedFailuresFile) {
    try {
      expectedFailures = await loadExpectedFailures(expectedFailuresFile);
    } catch (error) {
      if (!(error instanceof ExpectedFailuresError)) throw error;
      problems.push(...error.problems);
    }
  }

  const receiverHost = str('receiver-host') ?? '127.0.0.1';
  if (!['127.0.0.1', '::1', 'localhost'].includes(receiverHost) && str('callback-url') === undefined)
    problems.push(
      `--receiver-host ${receiverHost} needs --callback-url: the URL at which the target reaches this host`,
    );

  const feedPartner = attempt(() => feedPartnerConfig(str, path, int), undefined);
  const feedName = str('feed-name');
  if (feedName !== undefined && !/^[^\s:]{1,200}$/u.test(feedName))
    problems.push(`${label('feed-name')} must be 1 to 200 characters without spaces or colons (received: ${feedName})`);
  const feedInfoId = str('feed-info-id');
  if (feedInfoId !== undefined && !/^\S{1,200}$/u.test(feedInfoId))
    problems.push(`${label('feed-info-id')} must be 1 to 200 characters without spaces (received: ${feedInfoId})`);

  const stepSummary = githubStepSummary(env);
  const color = v['no-color'] !== true && !env.NO_COLOR && env.FORCE_COLOR !== '0';
  const config: ConformanceConfig = {
    baseUrl,
    tokens: {
      consumer: str('token'),
      full: str('full-token'),
      admin: str('admin-token'),
      sessionUser: str('session-user'),
      sessionPassword: str('session-password'),
    },
    accountId,
    callbackUrl: url('callback-url'),
    receiver: {
      host: receiverHost,
      port: int('receiver-port', 0, 0, 65535),
      tls: v['receiver-tls'] === true,
    },
    profile,
    only: list(v.only),
    skip: list(v.skip),
    allowIncomplete: v['allow-incomplete'] === true,
    expectedFailuresFile,
    expectedFailures,
    reportDir: path('report-dir', resolve(cwd, 'reports/conformance')),
    reporters: reporters.length > 0 ? (reporters as ReporterName[]) : [...REPORTERS],
    seed: int('seed', randomInt(0, 2 ** 31 - 1), -(2 ** 31), 2 ** 31 - 1),
    numRuns: int('num-runs', 25, 1, 100_000),
    timeoutMs: int('timeout', 15_000, 100, 600_000),
    checkTimeoutMs: int('check-timeout', 120_000, 1_000, 3_600_000),
    concurrency: int('concurrency', 4, 1, 64),
    retryAfterCapMs: int('retry-after-cap', 10_000, 500, 600_000),
    webhook: {
      waitMs: int('webhook-wait', DEFAULT_WEBHOOK_TIMING.waitMs, 100, 3_600_000),
      quietMs: int('webhook-quiet', DEFAULT_WEBHOOK_TIMING.quietMs, 0, 3_600_000),
      slowMs: int('webhook-slow', DEFAULT_WEBHOOK_TIMING.slowMs, 100, 600_000),
    },
    assetOversizeBytes: int('asset-oversize', DEFAULT_ASSET_OVERSIZE_BYTES, 0, 2 ** 31 - 1),
    feedId: str('feed-id'),
    ...(configFile === undefined ? {} : { configFile: configFile.file }),
    ...(configFile?.variants === undefined ? {} : { declaredVariants: configFile.variants }),
    ...(feedName === undefined ? {} : { feedName }),
    ...(feedInfoId === undefined ? {} : { feedInfoId }),
    ...(feedPartner === undefined ? {} : { feedPartner }),
    ...(stepSummary === undefined ? {} : { stepSummary }),
    specFile: path('spec', resolve(PACKAGE_ROOT, 'generated/openapi.json')),
    requirementsFile: path('requirements', resolve(PACKAGE_ROOT, 'spec/requirements.yaml')),
    dryRun,
    color,
    verbose: v.verbose === true,
    runId: newRunId(),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return { kind: 'run', config };
}

/** GitHub Actions sets GITHUB_STEP_SUMMARY in every step; the run's page lists its artifacts. */
function githubStepSummary(env: NodeJS.ProcessEnv): ConformanceConfig['stepSummary'] {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file) return undefined;
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: run } = env;
  return { file, ...(server && repo && run ? { runUrl: `${server}/${repo}/actions/runs/${run}` } : {}) };
}

const LOOPBACK = ['127.0.0.1', '::1', 'localhost'];

/** --feed-partner-*: undefined without --feed-partner-port (the other options then make no sense). */
function feedPartnerConfig(
  str: (name: OptionName) => string | undefined,
  path: (name: OptionName, fallback: string) => string,
  int: (name: OptionName, fallback: number, min: number, max: number) => number,
): FeedPartnerConfig | undefined {
  const portText = str('feed-partner-port');
  if (portText === undefined) {
    const stray = (['feed-partner-host', 'feed-partner-url', 'feed-partner-cert', 'feed-partner-key'] as const).find(
      (name) => str(name) !== undefined,
    );
    if (stray) throw new ConfigError(`--${stray} needs --feed-partner-port (the port the partner endpoint listens on)`);
    return undefined;
  }
  const port = int('feed-partner-port', 0, 1, 65535);
  const host = str('feed-partner-host') ?? '127.0.0.1';
  const given = str('feed-partner-url');
  if (!LOOPBACK.includes(host) && given === undefined) {
    throw new ConfigError(
      `--feed-partner-host ${host} needs --feed-partner-url: the https URL at which the target reaches this host`,
    );
  }
  let url: URL;
  try {
    url = new URL(given ?? `https://${host.includes(':') ? `[${host}]` : host}:${port}/feed.json`);
  } catch {
    throw new ConfigError(`--feed-partner-url must be an absolute URL (received: ${given})`);
  }
  if (url.protocol !== 'https:')
    throw new ConfigError(
      `--feed-partner-url must be an https URL: partner feeds are fetched over HTTPS (received: ${given})`,
    );
  if (url.search || url.hash || url.username || url.password)
    throw new ConfigError(`--feed-partner-url must have no query, fragment or user info (received: ${given})`);
  if (url.pathname === '/' || url.pathname.endsWith('/'))
    throw new ConfigError(
      `--feed-partner-url must name a document, e.g. https://host:${port}/feed.json (received: ${given})`,
    );
  const certGiven = str('feed-partner-cert') !== undefined;
  if (certGiven !== (str('feed-partner-key') !== undefined))
    throw new ConfigError(
      '--feed-partner-cert and --feed-partner-key go together (or CONFORMANCE_FEED_PARTNER_CERT and CONFORMANCE_FEED_PARTNER_KEY)',
    );
  return {
    host,
    port,
    url: url.href,
    ...(certGiven ? { certFile: path('feed-partner-cert', ''), keyFile: path('feed-partner-key', '') } : {}),
  };
}
