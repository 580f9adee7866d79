// The command-line options, each with its environment variable (for CI) and help text. Each can
// also be a key of the config file. Flags win over the environment, the environment over the
// file, the file over defaults.

export interface OptionSpec {
  type: 'string' | 'boolean';
  env?: string;
  value?: string;
  multiple?: boolean;
  short?: string;
  help: string;
}

export const OPTIONS = {
  config: {
    type: 'string',
    env: 'CONFORMANCE_CONFIG',
    value: 'FILE',
    help: 'Config file with any of these options (same names) and the declared target variants (default: content-conformance.yaml in the working directory, when present).',
  },
  'base-url': {
    type: 'string',
    env: 'CONFORMANCE_BASE_URL',
    value: 'URL',
    help: 'Base URL of the target, normally ending in /api (required).',
  },
  token: {
    type: 'string',
    env: 'CONFORMANCE_TOKEN',
    value: 'TOKEN',
    help: 'A consumer token (live data only). Prefer the environment variable: flags show in `ps`.',
  },
  'full-token': {
    type: 'string',
    env: 'CONFORMANCE_FULL_TOKEN',
    value: 'TOKEN',
    help: 'A token that also sees archived and deleted items.',
  },
  'admin-token': {
    type: 'string',
    env: 'CONFORMANCE_ADMIN_TOKEN',
    value: 'TOKEN',
    help: 'A ROLE_ADMIN token of --account-id (token management, webhooks, ontology).',
  },
  'account-id': {
    type: 'string',
    env: 'CONFORMANCE_ACCOUNT_ID',
    value: 'ID',
    help: 'The account the admin token belongs to.',
  },
  'callback-url': {
    type: 'string',
    env: 'CONFORMANCE_CALLBACK_URL',
    value: 'URL',
    help: "Public URL where the target reaches the suite's webhook receiver (e.g. a tunnel to --receiver-port). Default: the receiver's own 127.0.0.1 URL.",
  },
  'receiver-host': {
    type: 'string',
    env: 'CONFORMANCE_RECEIVER_HOST',
    value: 'HOST',
    help: 'Interface the webhook receiver listens on (default 127.0.0.1).',
  },
  'receiver-port': {
    type: 'string',
    env: 'CONFORMANCE_RECEIVER_PORT',
    value: 'PORT',
    help: 'Port of the webhook receiver (default: a free port).',
  },
  'receiver-tls': {
    type: 'boolean',
    env: 'CONFORMANCE_RECEIVER_TLS',
    help: 'Serve the receiver over HTTPS with a self-signed certificate (written to the report dir as receiver-cert.pem for the target to trust).',
  },
  'session-user': {
    type: 'string',
    env: 'CONFORMANCE_SESSION_USER',
    value: 'NAME',
    help: 'A first-party user of --account-id for POST /auth/signin (session checks).',
  },
  'session-password': {
    type: 'string',
    env: 'CONFORMANCE_SESSION_PASSWORD',
    value: 'PASSWORD',
    help: "That user's password. Prefer the environment variable.",
  },
  'webhook-wait': {
    type: 'string',
    env: 'CONFORMANCE_WEBHOOK_WAIT',
    value: 'MS',
    help: 'Longest wait for an expected webhook delivery or retry (default 15000).',
  },
  'webhook-quiet': {
    type: 'string',
    env: 'CONFORMANCE_WEBHOOK_QUIET',
    value: 'MS',
    help: "How long to watch for a delivery that must not come, e.g. a retry after a 4xx (default 6000: the interface's first retry comes ~5 s after a failure; a test deployment with a short retry schedule can use less).",
  },
  'webhook-slow': {
    type: 'string',
    env: 'CONFORMANCE_WEBHOOK_SLOW',
    value: 'MS',
    help: "How long the receiver holds its answer to provoke a timeout; must exceed the target's webhook timeout (default 6000; the interface's budget is 5 s).",
  },
  'asset-oversize': {
    type: 'string',
    env: 'CONFORMANCE_ASSET_OVERSIZE',
    value: 'BYTES',
    help: "Size of the upload that must be refused with 413; above the target's asset limit (default 22020096 = 21 MiB; 0 skips the check).",
  },
  'feed-id': {
    type: 'string',
    env: 'CONFORMANCE_FEED_ID',
    value: 'ID',
    help: "An inbound feed of --account-id. Alone: the feed argument checks (never run). With --feed-partner-port: the feed import checks, which run it against the suite's partner endpoint.",
  },
  'feed-partner-port': {
    type: 'string',
    env: 'CONFORMANCE_FEED_PARTNER_PORT',
    value: 'PORT',
    help: "Serve the partner endpoint of --feed-id on this fixed port (HTTPS, /feed.json); configure the feed's URL to it once. Enables the feed import checks.",
  },
  'feed-partner-host': {
    type: 'string',
    env: 'CONFORMANCE_FEED_PARTNER_HOST',
    value: 'HOST',
    help: 'Interface the partner endpoint listens on (default 127.0.0.1; another needs --feed-partner-url).',
  },
  'feed-partner-url': {
    type: 'string',
    env: 'CONFORMANCE_FEED_PARTNER_URL',
    value: 'URL',
    help: 'The https URL at which the target fetches the partner document (default https://<host>:<port>/feed.json); its host goes into the generated certificate.',
  },
  'feed-partner-cert': {
    type: 'string',
    env: 'CONFORMANCE_FEED_PARTNER_CERT',
    value: 'FILE',
    help: 'PEM certificate of the partner endpoint (with --feed-partner-key). Default: a self-signed one kept in the report dir (feed-partner-cert.pem), reused while valid; the feed must trust it.',
  },
  'feed-partner-key': {
    type: 'string',
    env: 'CONFORMANCE_FEED_PARTNER_KEY',
    value: 'FILE',
    help: 'PEM private key of --feed-partner-cert.',
  },
  'feed-name': {
    type: 'string',
    env: 'CONFORMANCE_FEED_NAME',
    value: 'NAME',
    help: "The feed's name, the first part of its items' externalId <name>:<partner id> (DEC-FEED-003). Default: learnt from the first imported item.",
  },
  'feed-info-id': {
    type: 'string',
    env: 'CONFORMANCE_FEED_INFO_ID',
    value: 'ID',
    help: 'The feedInfoId of a sub-feed of --feed-id for the sub-feed check (default conformance).',
  },
  profile: {
    type: 'string',
    env: 'CONFORMANCE_PROFILE',
    value: 'NAME',
    help: 'consumer (read-only, default), full (writes tagged test data), certification (full; a skipped MUST check fails).',
  },
  only: {
    type: 'string',
    env: 'CONFORMANCE_ONLY',
    value: 'PATTERNS',
    multiple: true,
    help: 'Run only checks whose id, requirement ids or tags match (comma-separated, globs: HOOK-*, auth.*).',
  },
  skip: {
    type: 'string',
    env: 'CONFORMANCE_SKIP',
    value: 'PATTERNS',
    multiple: true,
    help: 'Skip checks whose id, requirement ids or tags match (e.g. rate-limit).',
  },
  'allow-incomplete': {
    type: 'boolean',
    env: 'CONFORMANCE_ALLOW_INCOMPLETE',
    help: 'Under full and certification, exit 0 instead of 3 when the verdict is INCOMPLETE (MUST requirements left unverified).',
  },
  'expected-failures': {
    type: 'string',
    env: 'CONFORMANCE_EXPECTED_FAILURES',
    value: 'FILE',
    help: 'Waivers: YAML/JSON list of {check | requirement, reason, owner, expires (at most 90 days ahead)} known to fail on this target; a stale or expired waiver fails the run.',
  },
  'report-dir': {
    type: 'string',
    env: 'CONFORMANCE_REPORT_DIR',
    value: 'DIR',
    help: 'Where reports go (default ./reports/conformance).',
  },
  reporters: {
    type: 'string',
    env: 'CONFORMANCE_REPORTERS',
    value: 'LIST',
    help: 'Any of console,junit,json,html (default: all).',
  },
  seed: {
    type: 'string',
    env: 'CONFORMANCE_SEED',
    value: 'N',
    help: 'Seed for generated inputs; printed on every run, pass it back to replay.',
  },
  'num-runs': {
    type: 'string',
    env: 'CONFORMANCE_NUM_RUNS',
    value: 'N',
    help: 'Runs per property-based check (default 25).',
  },
  timeout: {
    type: 'string',
    env: 'CONFORMANCE_TIMEOUT',
    value: 'MS',
    help: 'Per-request timeout in milliseconds (default 15000).',
  },
  concurrency: {
    type: 'string',
    env: 'CONFORMANCE_CONCURRENCY',
    value: 'N',
    help: 'Read-only checks run side by side, at most N at once (default 4; 1: one after another). A check that writes always runs alone.',
  },
  'check-timeout': {
    type: 'string',
    env: 'CONFORMANCE_CHECK_TIMEOUT',
    value: 'MS',
    help: 'Per-check timeout in milliseconds (default 120000).',
  },
  'retry-after-cap': {
    type: 'string',
    env: 'CONFORMANCE_RETRY_AFTER_CAP',
    value: 'MS',
    help: 'Longest wait after a 429 (default 10000).',
  },
  spec: {
    type: 'string',
    env: 'CONFORMANCE_SPEC',
    value: 'FILE',
    help: 'Bundled spec (default: generated/openapi.json of this package).',
  },
  requirements: {
    type: 'string',
    env: 'CONFORMANCE_REQUIREMENTS',
    value: 'FILE',
    help: 'Requirement catalogue (default: spec/requirements.yaml of this package).',
  },
  'dry-run': {
    type: 'boolean',
    env: 'CONFORMANCE_DRY_RUN',
    help: 'List what would run, what each check writes and what is skipped, then exit.',
  },
  verbose: {
    type: 'boolean',
    env: 'CONFORMANCE_VERBOSE',
    help: 'List every skipped check under its reason (default: one line per reason with the count).',
  },
  'no-color': {
    type: 'boolean',
    help: 'Plain console output (also when NO_COLOR is set or output is not a terminal).',
  },
  help: { type: 'boolean', short: 'h', help: 'Show this help.' },
  version: { type: 'boolean', help: 'Print the suite version.' },
} satisfies Record<string, OptionSpec>;

export type OptionName = keyof typeof OPTIONS;

export function helpText(version: string): string {
  const lines = [
    `content-conformance ${version}: certifies a Content Service deployment against the interface.`,
    '',
    'Usage:',
    '  content-conformance --base-url URL [options]',
    '  content-conformance verify-report FILE      check the SHA-256 of a JSON or HTML report',
    '  content-conformance receiver --url URL --secret S   certify a webhook receiver (receiver --help)',
    '',
    'Options (environment variable in brackets):',
  ];
  for (const [name, spec] of Object.entries(OPTIONS) as [string, OptionSpec][]) {
    const flag = `--${name}${spec.value ? ` ${spec.value}` : ''}`;
    lines.push(`  ${flag.padEnd(30)}${spec.help}${spec.env ? ` [${spec.env}]` : ''}`);
  }
  lines.push(
    '',
    'Exit codes: 0 every required check passed; 1 a check failed; 2 the suite could not run',
    '(bad configuration, tokens the full or certification profile needs, unreachable target, spec',
    'or requirements error); 3 INCOMPLETE under full or certification: MUST requirements left',
    'unverified (--allow-incomplete exits 0). The consumer profile is the read-only subset: 0 or 1.',
    '',
    'Example:',
    '  CONFORMANCE_TOKEN=… npx content-conformance --base-url https://content.example.com/api',
  );
  return lines.join('\n');
}
