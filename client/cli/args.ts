// Command line of `content-sync` (`npm run sync -- …`, `npx content-sync …`): parsing and
// validation only, so every usage error is found before anything is opened.

import { parseArgs } from 'node:util';
import { assertSyncSize } from '../sync/keyset.ts';
import { DEFAULT_SYNC_SIZE } from '../sync/syncItems.ts';
import { COLLECTIONS, type Collection } from '../sync/types.ts';

/** The interface advises polling every 5 to 15 minutes (SYNC-007). */
export const WATCH_MINUTES = { min: 5, max: 15, default: 10 } as const;
export const TOKEN_ENV = 'CONTENT_SYNC_TOKEN';
export const DATABASE_URL_ENV = 'CONTENT_SYNC_DATABASE_URL';

export interface SyncCommand {
  baseUrl: string;
  token: string;
  /** PGlite data directory (when no databaseUrl). */
  out: string;
  databaseUrl: string | undefined;
  collections: Collection[];
  size: number;
  reconcile: boolean;
  /** Minutes between runs; undefined = run once. */
  watchMinutes: number | undefined;
  quiet: boolean;
  json: boolean;
  /** Extra detail on stderr (the progress bar's newest-item request). */
  debug: boolean;
}

export type ParsedCommand = { kind: 'help' } | { kind: 'version' } | { kind: 'sync'; command: SyncCommand };

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const HELP = `Usage: content-sync --base-url URL --token TOKEN [options]

Mirrors the items of a Content Service deployment into a local store with the interface's
incremental sync procedure: the first run is a full backfill, later runs fetch what changed
since the saved mark.

Options:
  --base-url URL         The service base URL, including /api (https://cs.example/api)
  --token TOKEN          Account API token (or ${TOKEN_ENV}; flags show in \`ps\`).
                         Removals reach the mirror only if it may see archived and deleted items.
  --out DIR              Embedded PGlite store in DIR (default ./mirror)
  --database-url URL     PostgreSQL store instead (or ${DATABASE_URL_ENV})
  --collections LIST     Comma-separated, default ${COLLECTIONS.join(',')}
  --size N               Page size, 2 to 2000 (default ${DEFAULT_SYNC_SIZE})
  --reconcile            After the sync, remove local items that are no longer published
  --watch [MINUTES]      Run again every ${WATCH_MINUTES.min} to ${WATCH_MINUTES.max} minutes (default ${WATCH_MINUTES.default}); Ctrl-C stops
  --quiet                No progress and no summary table (errors still go to stderr)
  --json                 Print the summary as JSON on stdout
  --debug                Also say whether the first page stated an item count
  -h, --help             This text
  --version              The client version

Exit codes: 0 synced, 1 a sync failed (its mark was not advanced; the next run redoes it),
2 bad usage or the store's package not installed (the line says how to install it),
130 interrupted by Ctrl-C during a run.`;

// `--watch` takes an optional value, which parseArgs cannot express: normalise it first.
function normaliseWatch(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if (arg !== '--watch') {
      out.push(arg);
    } else if (argv[i + 1] !== undefined && /^\d+(\.\d+)?$/.test(argv[i + 1]!)) {
      out.push(`--watch=${argv[++i]}`);
    } else {
      out.push(`--watch=${WATCH_MINUTES.default}`);
    }
  }
  return out;
}

function integer(name: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`--${name} must be a whole number (received: ${JSON.stringify(text)})`);
  return Number(text);
}

export function parseCommand(argv: readonly string[], env: NodeJS.ProcessEnv = {}): ParsedCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args: normaliseWatch(argv),
      strict: true,
      allowPositionals: false,
      options: {
        'base-url': { type: 'string' },
        token: { type: 'string' },
        out: { type: 'string' },
        'database-url': { type: 'string' },
        collections: { type: 'string' },
        size: { type: 'string' },
        reconcile: { type: 'boolean' },
        watch: { type: 'string' },
        quiet: { type: 'boolean' },
        json: { type: 'boolean' },
        debug: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };

  const baseUrl = values['base-url'];
  if (baseUrl === undefined) throw new UsageError('--base-url is required (e.g. https://cs.example/api)');
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol))
    throw new UsageError(`--base-url must be an http(s) URL (received: ${JSON.stringify(baseUrl)})`);

  const token = values.token ?? env[TOKEN_ENV];
  if (!token) throw new UsageError(`a token is required: --token or ${TOKEN_ENV}`);

  const databaseUrl = values['database-url'] ?? env[DATABASE_URL_ENV];
  if (databaseUrl !== undefined && values.out !== undefined)
    throw new UsageError('--out (PGlite) and --database-url (PostgreSQL) exclude each other');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl))
    throw new UsageError('--database-url must be a postgres:// or postgresql:// URL');

  const collections = (values.collections ?? COLLECTIONS.join(','))
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  const unknown = collections.filter((c) => !(COLLECTIONS as readonly string[]).includes(c));
  if (unknown.length > 0 || collections.length === 0)
    throw new UsageError(
      `--collections takes a comma-separated list of ${COLLECTIONS.join(', ')} (received: ${JSON.stringify(values.collections)})`,
    );

  const size = values.size === undefined ? DEFAULT_SYNC_SIZE : integer('size', values.size);
  try {
    assertSyncSize(size);
  } catch (error) {
    throw new UsageError(`--size: ${(error as Error).message}`);
  }

  let watchMinutes: number | undefined;
  if (values.watch !== undefined) {
    watchMinutes = Number(values.watch);
    if (!(watchMinutes >= WATCH_MINUTES.min && watchMinutes <= WATCH_MINUTES.max)) {
      throw new UsageError(
        `--watch takes ${WATCH_MINUTES.min} to ${WATCH_MINUTES.max} minutes, the poll interval the interface advises (received: ${values.watch})`,
      );
    }
  }

  return {
    kind: 'sync',
    command: {
      baseUrl,
      token,
      out: values.out ?? './mirror',
      databaseUrl,
      collections: [...new Set(collections)] as Collection[],
      size,
      reconcile: values.reconcile ?? false,
      watchMinutes,
      quiet: values.quiet ?? false,
      json: values.json ?? false,
      debug: values.debug ?? false,
    },
  };
}
