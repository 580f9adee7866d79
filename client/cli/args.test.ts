import { describe, expect, it } from 'vitest';
import { parseCommand, UsageError, type SyncCommand } from './args.ts';

const base = ['--base-url', 'https://cs.example/api', '--token', 'cst_x'];
const sync = (argv: string[], env: NodeJS.ProcessEnv = {}): SyncCommand => {
  const parsed = parseCommand(argv, env);
  if (parsed.kind !== 'sync') throw new Error(`expected a sync command, got ${parsed.kind}`);
  return parsed.command;
};

describe('content-sync arguments', () => {
  it('when only the required options are given, then the defaults apply (./mirror, all five collections, size 2000, once)', () => {
    expect(sync(base)).toEqual({
      baseUrl: 'https://cs.example/api',
      token: 'cst_x',
      out: './mirror',
      databaseUrl: undefined,
      collections: ['events', 'locations', 'routes', 'eventgroups', 'venues'],
      size: 2000,
      reconcile: false,
      watchMinutes: undefined,
      quiet: false,
      json: false,
      debug: false,
    });
  });

  it('when --watch has no value, then it is 10 minutes; with one (separate or =) it is that value [SYNC-007]', () => {
    expect(sync([...base, '--watch']).watchMinutes).toBe(10);
    expect(sync(['--watch', ...base]).watchMinutes).toBe(10);
    expect(sync([...base, '--watch', '5']).watchMinutes).toBe(5);
    expect(sync([...base, '--watch=15', '--json']).watchMinutes).toBe(15);
  });

  it('when the token and database URL come from the environment, then they are used', () => {
    const c = sync(['--base-url', 'http://127.0.0.1:8080/api'], {
      CONTENT_SYNC_TOKEN: 'cst_env',
      CONTENT_SYNC_DATABASE_URL: 'postgres://u@db/mirror',
    });
    expect([c.token, c.databaseUrl]).toEqual(['cst_env', 'postgres://u@db/mirror']);
  });

  it('when collections, size, reconcile, quiet and json are given, then they are parsed and collections deduplicated', () => {
    expect(
      sync([...base, '--collections', 'venues, events,venues', '--size', '2', '--reconcile', '--quiet', '--json']),
    ).toMatchObject({
      collections: ['venues', 'events'],
      size: 2,
      reconcile: true,
      quiet: true,
      json: true,
    });
  });

  it.each([
    [[], /--base-url is required/],
    [['--base-url', 'ftp://x/api', '--token', 't'], /http\(s\) URL/],
    [['--base-url', 'https://x/api'], /token is required/],
    [[...base, '--size', '1'], /size 1 never terminates/],
    [[...base, '--size', '2001'], /from 2 to 2000/],
    [[...base, '--size', '1e3'], /whole number/],
    [[...base, '--watch', '4'], /5 to 15 minutes/],
    [[...base, '--watch=16'], /5 to 15 minutes/],
    [[...base, '--watch=soon'], /5 to 15 minutes/],
    [[...base, '--collections', 'events,films'], /comma-separated list/],
    [[...base, '--collections', ','], /comma-separated list/],
    [[...base, '--out', 'x', '--database-url', 'postgres://db/x'], /exclude each other/],
    [[...base, '--database-url', 'mysql://db/x'], /postgres:\/\//],
    [[...base, '--verbose'], /Unknown option '--verbose'/],
    [[...base, 'extra'], /positional/],
  ])('when given %j, then it is a usage error', (argv, message) => {
    expect(() => parseCommand(argv as string[], {})).toThrow(UsageError);
    expect(() => parseCommand(argv as string[], {})).toThrow(message);
  });

  it('when --help or --version is given, then nothing else is checked', () => {
    expect(parseCommand(['--help'])).toEqual({ kind: 'help' });
    expect(parseCommand(['-h', '--size', '1'])).toEqual({ kind: 'help' });
    expect(parseCommand(['--version'])).toEqual({ kind: 'version' });
  });
});
