// `npm start`: the reference service. Configuration comes from the environment (`--help` lists
// it); the human summary (URLs, demo tokens) goes to stdout once, everything else is structured
// pino logs, which never hold a token or secret.

import path from 'node:path';
import { ConfigError, configSummary, describeConfig, loadConfig, type Config } from './config.ts';
import { createLogger } from './logger.ts';
import type { RevokedDemoCredentials } from './seed/revokeDemoCredentials.ts';
import type { SeedResult } from './seed/seedDemoData.ts';
import { formatDemoUsers } from './sessions/seedDemoUsers.ts';
import { startService, type RunningService } from './server.ts';

// Installed from npm the command is `content-service` (bin/content-service.js); in the repository
// `npm start` runs this file. Help and hints name the one that was run.
const installed = /^content-service(\.js)?$/.test(path.basename(process.argv[1] ?? ''));
const USAGE = installed
  ? `Usage: content-service [--help]      (or: npx @content-service/reference)`
  : `Usage: npm start [-- --help]         (or: node reference-impl/src/main.ts)`;
const HELP_COMMAND = installed ? 'content-service --help' : 'npm start -- --help';

const HELP = `Content Service reference implementation: a local sandbox of the interface.

${USAGE}

Runs on embedded PGlite in DATA_DIR unless DATABASE_URL names a PostgreSQL database. Seeds demo
accounts, users, tokens (a super admin among them), items and assets into an empty embedded store
unless SEED_DEMO_DATA=false. Demo data is off by default with DATABASE_URL or NODE_ENV=production;
SEED_DEMO_DATA=true turns it on there. A start with demo data off deletes the demo tokens and
users of an earlier seed.

`;

/** A banner no one scrolls past: demo credentials are admin access to whoever reads this output. */
// Above the code that prints it: the top level runs before later declarations are initialised.
const DEMO_BANNER = [
  '#'.repeat(78),
  '#  DEMO MODE: the demo tokens and users below, a SUPER ADMIN among them,     #',
  '#  work on this store. For trying the service only: never expose it.         #',
  '#  A start with SEED_DEMO_DATA=false (the default with NODE_ENV=production)  #',
  '#  deletes them.                                                             #',
  '#'.repeat(78),
  '',
];

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write(HELP + describeConfig());
  process.exit(0);
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n\nSee: ${HELP_COMMAND}\n`);
  process.exit(2);
}

const logger = createLogger({ level: config.logLevel });
for (const warning of config.warnings) logger.warn(warning);
logger.info({ config: configSummary(config) }, 'starting');

let service: RunningService;
try {
  service = await startService(config, logger);
} catch (error) {
  logger.fatal({ err: error }, 'start failed');
  process.exit(1);
}
logger.info(
  { baseUrl: service.baseUrl, seeded: service.seed?.seeded ?? false, items: service.seed?.items ?? 0 },
  'listening',
);
if (service.revokedDemo !== undefined && service.revokedDemo.tokens + service.revokedDemo.users > 0)
  logger.warn({ ...service.revokedDemo }, 'demo data is off: the demo tokens and users of an earlier seed are deleted');
if ((service.seed?.tokens.length ?? 0) > 0)
  logger.warn(
    { demoTokens: service.seed!.tokens.length },
    'demo mode: demo tokens, a super admin among them, work on this store; start with SEED_DEMO_DATA=false to delete them',
  );
process.stdout.write(summary(service));

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: finishing in-flight requests');
    service.stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'stop failed');
        process.exit(1);
      },
    );
  });
}

/** What a person starting the service needs: where it is, where the docs are, a token to try. */
function summary(running: RunningService): string {
  const lines = [
    '',
    'Content Service reference implementation',
    `  API:   ${running.baseUrl}`,
    running.docsUrl === undefined
      ? '  Docs:  not built; run `npm run docs`, then they are served at /docs/'
      : `  Docs:  ${running.docsUrl}`,
    '',
    ...tokenLines(running),
    '',
  ];
  return `${lines.join('\n')}\n`;
}

function tokenLines(service: RunningService): string[] {
  const { seed, config: running } = service;
  const bootstrap =
    running.bootstrapAdminToken === undefined
      ? []
      : ['  BOOTSTRAP_ADMIN_TOKEN is a super-admin token (every organisation and status).'];
  if (seed?.seeded === true && seed.tokens.length > 0) {
    const width = Math.max(...seed.tokens.map((t) => t.label.length));
    const demo = seed.tokens[0]!;
    return [
      ...DEMO_BANNER,
      `Demo data seeded: ${seed.items} items, ${seed.assets} assets. Demo tokens, shown only now (stored as hashes; keep them):`,
      ...seed.tokens.map((t) => `  ${t.label.padEnd(width)}  ${t.token}  (${t.roles.join(', ')}; ${t.scope})`),
      ...bootstrap,
      ...(seed.users.length > 0
        ? [
            '',
            'Demo users for POST /api/auth/signin {username, password}, shown only now:',
            formatDemoUsers(seed.users),
          ]
        : []),
      '',
      'Try:',
      `  curl -H "Authorization: Bearer ${demo.token}" ${running.publicBaseUrl}/events`,
    ];
  }
  if (seed !== undefined && seed.tokens.length > 0) {
    const width = Math.max(...seed.tokens.map((t) => t.label.length));
    return [
      ...DEMO_BANNER,
      'Demo tokens, with new values for this run (only hashes are stored, so earlier values no longer work):',
      ...seed.tokens.map((t) => `  ${t.label.padEnd(width)}  ${t.token}  (${t.roles.join(', ')}; ${t.scope})`),
      ...bootstrap,
      '',
      'Try:',
      `  curl -H "Authorization: Bearer ${seed.tokens[0]!.token}" ${running.publicBaseUrl}/events`,
    ];
  }
  return [
    ...storeLines(service),
    ...(bootstrap.length > 0
      ? bootstrap
      : [
          'To get a token: set BOOTSTRAP_ADMIN_TOKEN to a long random value and restart; it is then a',
          'super-admin token, with which POST /api/accounts/{accountId}/tokens creates account tokens.',
        ]),
  ];
}

/** Why no demo token is shown: demo data off (and what it deleted), or a store with data already. */
function storeLines(service: RunningService): string[] {
  if (service.seed !== undefined)
    return ['The store holds data already, so no demo token is shown (tokens are stored only as hashes).'];
  const off =
    'Demo data is off (SEED_DEMO_DATA=false, its default with DATABASE_URL or NODE_ENV=production; SEED_DEMO_DATA=true turns it on).';
  return [
    off,
    ...revokedLines(service.revokedDemo),
    service.storeWasEmpty
      ? 'The store is empty: there is no token yet.'
      : 'The store holds data already; its tokens are stored only as hashes, so none is shown.',
  ];
}

function revokedLines(revoked: RevokedDemoCredentials | undefined): string[] {
  if (revoked === undefined || revoked.tokens + revoked.users === 0) return [];
  return [
    `Deleted the ${revoked.tokens} demo tokens and ${revoked.users} demo users of an earlier seed: their printed values no longer work.`,
  ];
}
