import { describe, expect, it } from 'vitest';
import { createProgress, renderBar } from './progress.ts';

const progress = (fetched: number, pages: number, total?: number) => ({
  collection: 'events' as const,
  pages,
  fetched,
  upserted: fetched,
  removed: 0,
  skipped: 0,
  repeated: 0,
  mark: undefined,
  ...(total !== undefined ? { total } : {}),
});

function terminal() {
  let out = '';
  let now = 0;
  const hooks = createProgress({ write: (t: string) => (out += t), isTTY: true }, ['events'], () => now);
  return { hooks, tick: () => (now += 1000), last: () => out.split('\x1b[2K').at(-1)!.trim() };
}

describe('progress on a terminal', () => {
  it('when the service stated the count, then the line is a bar of the items fetched of it, with the pages', () => {
    const t = terminal();
    t.hooks.onStart!('events', 'sync');
    t.tick();
    t.hooks.onProgress!(progress(1000, 1, 4000));
    expect(t.last()).toMatch(
      /^\S events {2}\[#{6}-{18}\]  25% {2}1,000 of 4,000 fetched · 1,000 upserted · 0 removed · 1 page$/,
    );
    t.hooks.finish();
  });

  it('when it did not, then a spinner turns beside the counts and no bar is drawn', () => {
    const t = terminal();
    t.hooks.onStart!('events', 'sync');
    t.tick();
    t.hooks.onProgress!(progress(2000, 2));
    const first = t.last();
    t.tick();
    t.hooks.onProgress!(progress(4000, 3));
    expect(first).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] events {2}2,000 fetched · 2,000 upserted · 0 removed · 2 pages$/);
    expect(t.last()[0]).not.toBe(first[0]);
    expect(t.last()).not.toContain('[');
    t.hooks.finish();
  });

  it('when items written during the run pass the count, then the bar stays full', () => {
    expect(renderBar(1.2)).toBe(`[${'#'.repeat(24)}] 100%`);
    expect(renderBar(0.999)).toBe(`[${'#'.repeat(23)}-]  99%`);
  });
});
