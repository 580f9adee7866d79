// Progress on stderr, by items and pages: on a terminal one line per collection, redrawn in place,
// with a spinner and the counts, and a bar of the items fetched when the first page's answer
// stated how many there are (mirror.ts, totalCountOf); elsewhere (CI logs, pipes) plain lines
// with the counts, at most one per second per collection plus one when it ends.

import type { WaitEvent } from '../http/retry.ts';
import type { Collection } from '../sync/types.ts';
import type { CollectionResult, RunHooks, RunProgress, RunSummary } from './mirror.ts';

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

interface Line {
  state: 'waiting' | 'sync' | 'reconcile' | 'done' | 'failed';
  progress?: RunProgress;
  waits: number;
  result?: CollectionResult;
  lastPlain: number;
}

const SPINNER = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';
const n = (value: number) => value.toLocaleString('en-US');
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const plural = (count: number, word: string) => `${n(count)} ${word}${count === 1 ? '' : 's'}`;

function counters(
  fetched: number,
  upserted: number,
  removed: number,
  pages: number,
  waits: number,
  total?: number,
): string {
  return `${n(fetched)}${total === undefined ? '' : ` of ${n(total)}`} fetched · ${n(upserted)} upserted · ${n(removed)} removed · ${plural(pages, 'page')}${waits > 0 ? ` · ${plural(waits, 'throttled wait')}` : ''}`;
}

/** `[##########--------------]  41%`: floored, so 100% only when every item has come. */
export function renderBar(fraction: number, width = 24): string {
  const f = Math.min(1, Math.max(0, fraction));
  const filled = Math.floor(f * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${`${Math.floor(f * 100)}%`.padStart(4)}`;
}

export function createProgress(
  stream: ProgressStream,
  collections: readonly Collection[],
  clock: () => number = Date.now,
): RunHooks & { finish(): void } {
  const tty = stream.isTTY === true;
  const width = Math.max(...collections.map((c) => c.length));
  const lines = new Map<Collection, Line>(collections.map((c) => [c, { state: 'waiting', waits: 0, lastPlain: 0 }]));
  let drawn = 0;
  // Debug lines waiting to be written above the block (terminal).
  let above = '';
  let frame = 0;
  let lastDraw = 0;
  // Keeps the spinner turning while a slow page loads; unref'd, so it never holds the process.
  let ticker: ReturnType<typeof setInterval> | undefined;

  const body = (line: Line): string => {
    const p = line.progress;
    const r = line.result;
    // Only on a terminal, and only when the service stated the count (items written during the
    // run may take it past the count: the bar then stays full).
    const bar = (done: number, total: number | undefined) =>
      tty && total !== undefined && total > 0 ? `${renderBar(done / total)}  ` : '';
    switch (line.state) {
      case 'waiting':
        return 'waiting';
      case 'sync':
      case 'reconcile':
        return `${line.state === 'reconcile' ? 'reconciling · ' : bar(p?.fetched ?? 0, p?.total)}${counters(p?.fetched ?? 0, p?.upserted ?? 0, p?.removed ?? 0, p?.pages ?? 0, line.waits, p?.total)}`;
      case 'done':
        return `${bar(r!.fetched, p?.total)}${counters(r!.fetched, r!.upserted, r!.removed, r!.pages, r!.throttledWaits, p?.total)}${r!.reconciled > 0 ? ` · ${n(r!.reconciled)} reconciled` : ''} in ${seconds(r!.durationMs)}`;
      case 'failed':
        return `failed after ${seconds(r!.durationMs)}: ${r!.error}`;
    }
  };
  const symbol = (line: Line) =>
    (({ waiting: ' ', done: '✓', failed: '✗' }) as Record<string, string>)[line.state] ??
    SPINNER[frame % SPINNER.length]!;

  // Terminal: move up over the block drawn last time and rewrite every line.
  const redraw = (force: boolean) => {
    const now = clock();
    if (!force && now - lastDraw < 100) return;
    lastDraw = now;
    frame++;
    let out = (drawn > 0 ? `\x1b[${drawn}A` : '') + above;
    above = '';
    for (const [collection, line] of lines)
      out += `\r\x1b[2K${symbol(line)} ${collection.padEnd(width)}  ${body(line)}\n`;
    drawn = lines.size;
    stream.write(out);
  };

  const plain = (collection: Collection, force: boolean) => {
    const line = lines.get(collection)!;
    const now = clock();
    if (!force && now - line.lastPlain < 1000) return;
    line.lastPlain = now;
    stream.write(`${collection}: ${body(line)}\n`);
  };

  const update = (collection: Collection, force: boolean) => (tty ? redraw(force) : plain(collection, force));

  return {
    onDebug(collection, message) {
      if (!tty) return void stream.write(`${collection}: ${message}\n`);
      above += `\r\x1b[2K${collection}: ${message}\n`;
      redraw(true);
    },
    onStart(collection, phase, from) {
      lines.get(collection)!.state = phase;
      if (tty) ticker ??= setInterval(() => redraw(false), 150).unref();
      if (tty) redraw(true);
      else
        stream.write(
          `${collection}: ${phase === 'reconcile' ? 'reconciling' : from === undefined ? 'full backfill' : `changes since ${from}`}\n`,
        );
    },
    onProgress(progress) {
      const line = lines.get(progress.collection)!;
      line.progress = progress;
      update(progress.collection, false);
    },
    onWait(collection: Collection, wait: WaitEvent) {
      lines.get(collection)!.waits++;
      if (tty) redraw(false);
      else
        stream.write(
          `${collection}: waiting ${seconds(wait.delayMs)} (${wait.reason}${wait.status ? ` ${wait.status}` : ''})\n`,
        );
    },
    onDone(result) {
      const line = lines.get(result.collection)!;
      line.result = result;
      line.state = result.ok ? 'done' : 'failed';
      update(result.collection, true);
    },
    finish() {
      clearInterval(ticker);
      ticker = undefined;
      if (tty) redraw(true);
    },
  };
}

/** The summary table printed after a run (stdout), unless --quiet or --json. */
export function formatSummary(summary: RunSummary, target: string): string {
  const header = ['collection', 'fetched', 'upserted', 'removed', 'reconciled', 'pages', 'waits', 'time', 'mark'];
  const rows = summary.collections.map((c) => [
    c.collection,
    n(c.fetched),
    n(c.upserted),
    n(c.removed),
    n(c.reconciled),
    n(c.pages),
    n(c.throttledWaits),
    seconds(c.durationMs),
    c.ok ? (c.mark ?? '-') : `FAILED (mark kept: ${c.previousMark ?? 'none'})`,
  ]);
  const t = summary.totals;
  rows.push([
    'total',
    n(t.fetched),
    n(t.upserted),
    n(t.removed),
    n(t.reconciled),
    n(t.pages),
    n(t.throttledWaits),
    seconds(summary.durationMs),
    '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const format = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 || i === cells.length - 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  const status = summary.ok ? 'synced' : 'sync FAILED for some collections';
  return [
    `${status} into ${target}`,
    format(header),
    ...rows.map(format),
    t.throttledWaits > 0 ? `throttled waits: ${n(t.throttledWaits)}, ${seconds(t.waitedMs)} in total` : '',
  ]
    .filter((l) => l !== '')
    .join('\n');
}
