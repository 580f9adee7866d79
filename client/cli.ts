// `npm run sync -- …` / `npx content-sync …`: mirror a deployment into a local store. See --help
// and client/README.md.

import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import pkg from '../package.json' with { type: 'json' };
import { HELP, parseCommand, UsageError, type SyncCommand } from './cli/args.ts';
import { openMirror, type Mirror, type MirrorDeps, type RunSummary } from './cli/mirror.ts';
import { createProgress, formatSummary, type ProgressStream } from './cli/progress.ts';
import { MissingPeerDependencyError } from './sync/optionalPeer.ts';

export const EXIT = { ok: 0, syncFailed: 1, usage: 2, interrupted: 130 } as const;

export interface CliIo {
  stdout: ProgressStream;
  stderr: ProgressStream;
  env: NodeJS.ProcessEnv;
  /** Calls `handler` on Ctrl-C (and SIGTERM); returns the unsubscribe. */
  onInterrupt(handler: () => void): () => void;
  /** Store seam for tests; default PGlite in --out or PostgreSQL at --database-url. */
  openStore?: MirrorDeps['openStore'];
  /** Wall clock in epoch ms (default `Date.now`): the summary's times, "next run at", Ctrl-C timing. */
  clock?: () => number;
  /**
   * Waits `ms` between `--watch` runs (default a timer); resolves false, without waiting longer,
   * once `signal` aborts (Ctrl-C).
   */
  sleep?: (ms: number, signal: AbortSignal) => Promise<boolean>;
}

const sleepUnlessAborted = (ms: number, signal: AbortSignal): Promise<boolean> =>
  sleep(ms, true, { signal }).catch(() => false);

const processIo: CliIo = {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  onInterrupt(handler) {
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
    return () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    };
  },
};

export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  let parsed;
  try {
    parsed = parseCommand(argv, io.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`content-sync: ${error.message}\nTry: content-sync --help\n`);
    return EXIT.usage;
  }
  if (parsed.kind === 'help') return (void io.stdout.write(`${HELP}\n`), EXIT.ok);
  if (parsed.kind === 'version') return (void io.stdout.write(`${pkg.version}\n`), EXIT.ok);
  const command = parsed.command;
  const clock = io.clock ?? Date.now;
  const wait = io.sleep ?? sleepUnlessAborted;

  // First Ctrl-C: abort the run (the marks of unfinished collections stay; the next run redoes
  // them) or stop waiting for the next one. A second Ctrl-C, a second or more later, exits at
  // once (closer ones are the same press, delivered by the terminal and forwarded by the shim).
  const stop = new AbortController();
  let firstInterrupt: number | undefined;
  const unsubscribe = io.onInterrupt(() => {
    if (firstInterrupt !== undefined) {
      if (clock() - firstInterrupt >= 1000) process.exit(EXIT.interrupted);
      return;
    }
    firstInterrupt = clock();
    if (!command.quiet) io.stderr.write('\ncontent-sync: stopping (Ctrl-C again to exit at once)\n');
    stop.abort();
  });

  let mirror: Mirror | undefined;
  try {
    mirror = await openMirror(command, { openStore: io.openStore, clock });
    for (;;) {
      const summary = await runOnce(mirror, command, io, stop.signal);
      // Ctrl-C after the last collection finished does not make the run an interrupted one.
      const cut =
        summary.collections.length < command.collections.length ||
        summary.collections.some((c) => c.error === 'interrupted');
      if (cut) return EXIT.interrupted;
      if (command.watchMinutes === undefined || stop.signal.aborted) return summary.ok ? EXIT.ok : EXIT.syncFailed;
      const interval = command.watchMinutes * 60_000;
      const next = new Date(clock() + interval);
      if (!command.quiet)
        io.stderr.write(
          `content-sync: next run at ${next.toTimeString().slice(0, 8)} (every ${command.watchMinutes} min; Ctrl-C stops)\n`,
        );
      const woke = await wait(interval, stop.signal);
      if (!woke || stop.signal.aborted) return summary.ok ? EXIT.ok : EXIT.syncFailed;
    }
  } catch (error) {
    // The store's driver is an optional peer dependency: not installed is a usage error.
    if (error instanceof MissingPeerDependencyError) {
      const option = command.databaseUrl === undefined ? '--out (an embedded PGlite store)' : '--database-url';
      io.stderr.write(
        `content-sync: ${option} needs the package ${error.packageName}, which is not installed.\nInstall it: ${error.installLine}\n`,
      );
      return EXIT.usage;
    }
    io.stderr.write(`content-sync: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.syncFailed;
  } finally {
    unsubscribe();
    await mirror?.close();
  }
}

async function runOnce(mirror: Mirror, command: SyncCommand, io: CliIo, signal: AbortSignal): Promise<RunSummary> {
  const progress = command.quiet ? undefined : createProgress(io.stderr, command.collections);
  if (!command.quiet) io.stderr.write(`content-sync: ${command.baseUrl} → ${mirror.target}\n`);
  const summary = await mirror.run(
    {
      ...progress,
      onDebug: command.debug ? progress?.onDebug : undefined,
      // Errors reach stderr even when quiet.
      onDone: (result) =>
        progress
          ? progress.onDone?.(result)
          : result.ok || io.stderr.write(`content-sync: ${result.collection} failed: ${result.error}\n`),
    },
    signal,
  );
  progress?.finish();
  if (command.json) io.stdout.write(`${JSON.stringify(summary)}\n`);
  else if (!command.quiet) io.stdout.write(`${formatSummary(summary, mirror.target)}\n`);
  return summary;
}

if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2));
}
