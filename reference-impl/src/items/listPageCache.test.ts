import { describe, expect, it, vi } from 'vitest';
import type { Queryable } from '../storage/db.ts';
import { createListPageCache, wantsFreshAnswer, type PageChunks } from './listPageCache.ts';

// The cache's own rules, over a store whose content version the test sets (the version's
// triggers are tested in storage/items/contentVersion.test.ts, the whole in the list routes).

function storeAt(version: number) {
  const store = { version, versionReads: 0, db: undefined as unknown as Queryable };
  store.db = {
    query: async () => {
      store.versionReads++;
      return { rows: [{ content_version: String(store.version) }] };
    },
  } as unknown as Queryable;
  return store;
}

/** A page's pieces read whole. */
const text = async (chunks: PageChunks) => {
  const pieces: Buffer[] = [];
  for await (const piece of chunks) pieces.push(piece);
  return Buffer.concat(pieces).toString();
};
/** The answer's pieces one by one, whether already made or made as they are taken. */
const piecesOf = (chunks: PageChunks): AsyncIterator<Buffer> | Iterator<Buffer> =>
  Symbol.asyncIterator in chunks ? chunks[Symbol.asyncIterator]() : chunks[Symbol.iterator]();

/** A render that counts its calls and answers with the call number. */
function counter() {
  const render = async () => [Buffer.from(`render ${++render.calls}`)];
  render.calls = 0;
  return render;
}

describe('list page cache', () => {
  it('when a page is asked for again at the same version, then the kept answer is sent; at another version, it is rendered again', async () => {
    const store = storeAt(1);
    const cache = createListPageCache(store.db, { maxBytes: 64 * 1024 });
    const render = counter();
    expect(await text(await cache.answer({ q: 1 }, render))).toBe('render 1');
    expect(await text(await cache.answer({ q: 1 }, render))).toBe('render 1');
    expect(await text(await cache.answer({ q: 2 }, render)), 'another query').toBe('render 2');
    store.version = 2;
    expect(await text(await cache.answer({ q: 1 }, render))).toBe('render 3');
    expect(await text(await cache.answer({ q: 1 }, render))).toBe('render 3');
    expect(store.versionReads).toBe(5);
  });

  it('when a fresh answer is asked for, then it is rendered whatever is kept, without reading the version, and not kept', async () => {
    const store = storeAt(1);
    const cache = createListPageCache(store.db, { maxBytes: 64 * 1024 });
    const render = counter();
    await text(await cache.answer('q', render));
    expect(await text(await cache.answer('q', render, { fresh: true }))).toBe('render 2');
    expect(store.versionReads).toBe(1);
    expect(await text(await cache.answer('q', render))).toBe('render 1');
  });

  it('when requests for a page not kept arrive together, then they share one render', async () => {
    const cache = createListPageCache(storeAt(1).db, { maxBytes: 64 * 1024 });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let calls = 0;
    const render = async () => {
      calls++;
      await released;
      return [Buffer.from('page')];
    };
    const answers = Promise.all([cache.answer('q', render), cache.answer('q', render), cache.answer('q', render)]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    expect(await Promise.all((await answers).map(text))).toEqual(['page', 'page', 'page']);
    expect(calls).toBe(1);
  });

  it('when a render fails, then the error reaches every waiting request and nothing is kept', async () => {
    const cache = createListPageCache(storeAt(1).db, { maxBytes: 64 * 1024 });
    let calls = 0;
    const failing = async () => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      throw new Error('store down');
    };
    const outcomes = await Promise.allSettled([cache.answer('q', failing), cache.answer('q', failing)]);
    expect(outcomes.map((o) => (o.status === 'rejected' ? (o.reason as Error).message : 'answered'))).toEqual([
      'store down',
      'store down',
    ]);
    expect(calls).toBe(1);
    expect(await text(await cache.answer('q', async () => [Buffer.from('after')]))).toBe('after');
  });

  it('when a write commits right after a page was read from the store, then that page is not sent again: the version is read before the page', async () => {
    const store = storeAt(1);
    const cache = createListPageCache(store.db, { maxBytes: 64 * 1024 });
    await text(
      await cache.answer('q', async () => {
        const page = [Buffer.from('page read before the write')];
        store.version = 2; // the write commits now, after the page's query
        return page;
      }),
    );
    expect(await text(await cache.answer('q', async () => [Buffer.from('page read after the write')]))).toBe(
      'page read after the write',
    );
  });

  it('when a render finishes after another request has read a newer version, then it is not kept, and pages of older versions are dropped', async () => {
    const store = storeAt(1);
    const cache = createListPageCache(store.db, { maxBytes: 64 * 1024 });
    await text(await cache.answer('kept at 1', async () => [Buffer.from('old')]));
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const slow = cache.answer('q', async () => {
      await finished;
      return [Buffer.from('rendered at 1')];
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    store.version = 2;
    expect(await text(await cache.answer('other', async () => [Buffer.from('at 2')]))).toBe('at 2');
    finish();
    expect(await text(await slow)).toBe('rendered at 1');
    expect(await text(await cache.answer('q', async () => [Buffer.from('q at 2')]))).toBe('q at 2');
    store.version = 1;
    expect(await text(await cache.answer('kept at 1', async () => [Buffer.from('rendered again')]))).toBe(
      'rendered again',
    );
  });

  it('when the budget is 0, then every request renders and no version is read; a page over an eighth of the budget is not kept', async () => {
    const store = storeAt(1);
    const off = createListPageCache(store.db, { maxBytes: 0 });
    const render = counter();
    await text(await off.answer('q', render));
    await text(await off.answer('q', render));
    expect(render.calls).toBe(2);
    expect(store.versionReads).toBe(0);

    const small = createListPageCache(store.db, { maxBytes: 8 * 1024 });
    let big = 0;
    const bigRender = async () => [Buffer.alloc(1024, ++big)];
    await text(await small.answer('big', bigRender));
    await text(await small.answer('big', bigRender));
    expect(big).toBe(2);

    // A page of several pieces too large to keep is not joined into one copy either.
    const concat = vi.spyOn(Buffer, 'concat');
    try {
      let renders = 0;
      const pieces = async () => (renders++, [Buffer.alloc(600), Buffer.alloc(600)]);
      const lengths = async (chunks: PageChunks) => {
        const read: number[] = [];
        for await (const piece of chunks) read.push(piece.length);
        return read;
      };
      expect(await lengths(await small.answer('two pieces', pieces))).toEqual([600, 600]);
      expect(await lengths(await small.answer('two pieces', pieces))).toEqual([600, 600]);
      expect(renders).toBe(2);
      expect(concat).not.toHaveBeenCalled();
    } finally {
      concat.mockRestore();
    }
  });

  it('when a page is read piece by piece, then each piece is made only when it is taken, and the page is kept once whole', async () => {
    const cache = createListPageCache(storeAt(1).db, { maxBytes: 64 * 1024 });
    const made: string[] = [];
    const render = async () =>
      (function* () {
        for (const piece of ['[1', ',2', ']']) {
          made.push(piece);
          yield Buffer.from(piece);
        }
      })();
    const reader = piecesOf(await cache.answer('q', render));
    expect(String((await reader.next()).value)).toBe('[1');
    expect(made).toEqual(['[1']);
    expect(String((await reader.next()).value) + String((await reader.next()).value)).toBe(',2]');
    expect((await reader.next()).done).toBe(true);
    expect(await text(await cache.answer('q', render)), 'kept').toBe('[1,2]');
    expect(made).toEqual(['[1', ',2', ']']);
  });

  it('when requests share a render, then each reads every piece in order, made once', async () => {
    const cache = createListPageCache(storeAt(1).db, { maxBytes: 64 * 1024 });
    let made = 0;
    const render = async () =>
      (function* () {
        for (const piece of ['[1', ',2', ']']) {
          made++;
          yield Buffer.from(piece);
        }
      })();
    const [a, b] = await Promise.all([cache.answer('q', render), cache.answer('q', render)]);
    const first = piecesOf(a);
    await first.next();
    expect(await text(b)).toBe('[1,2]');
    expect(String((await first.next()).value) + String((await first.next()).value)).toBe(',2]');
    expect(made).toBe(3);
  });

  it('when every reader stops before the end, then nothing is kept and the next request renders again', async () => {
    const cache = createListPageCache(storeAt(1).db, { maxBytes: 64 * 1024 });
    let renders = 0;
    const render = async () => {
      renders++;
      return [Buffer.from('[1'), Buffer.from(']')];
    };
    for await (const piece of await cache.answer('q', render)) {
      expect(String(piece)).toBe('[1');
      break;
    }
    expect(await text(await cache.answer('q', render))).toBe('[1]');
    expect(renders).toBe(2);
  });

  it('when every reader of a render made as it is read stops, then its source is stopped too (a query gives back its connection)', async () => {
    const cache = createListPageCache(storeAt(1).db, { maxBytes: 64 * 1024 });
    const events: string[] = [];
    const render = async () =>
      (async function* () {
        try {
          yield Buffer.from('[1');
          yield Buffer.from(',2');
          events.push('made the rest');
          yield Buffer.from(']');
        } finally {
          events.push('source stopped');
        }
      })();
    const [a, b] = await Promise.all([cache.answer('q', render), cache.answer('q', render)]);
    const first = piecesOf(a);
    const second = piecesOf(b);
    expect(String((await first.next()).value)).toBe('[1');
    expect(String((await second.next()).value)).toBe('[1');
    await first.return?.();
    expect(events, 'one reader is still reading').toEqual([]);
    await second.return?.();
    expect(events).toEqual(['source stopped']);
  });

  it('when making a piece fails, then every reader gets the error and nothing is kept', async () => {
    const cache = createListPageCache(storeAt(1).db, { maxBytes: 64 * 1024 });
    let renders = 0;
    const failing = async () => {
      renders++;
      return (function* () {
        yield Buffer.from('[1');
        throw new Error('render failed');
      })();
    };
    const [a, b] = await Promise.all([cache.answer('q', failing), cache.answer('q', failing)]);
    await expect(text(a)).rejects.toThrow('render failed');
    await expect(text(b)).rejects.toThrow('render failed');
    expect(await text(await cache.answer('q', async () => [Buffer.from('[]')]))).toBe('[]');
    expect(renders).toBe(1);
  });

  it('when the request says Cache-Control no-cache or no-store, in any case or position, or only Pragma: no-cache, then a fresh answer is wanted; other directives do not', () => {
    for (const cacheControl of ['no-cache', 'No-Cache', 'max-age=0, no-cache', 'no-store', 'no-cache="x"'])
      expect(wantsFreshAnswer({ cacheControl }), cacheControl).toBe(true);
    for (const cacheControl of [undefined, '', 'max-age=60', 'no-transform', 'only-if-cached', 'x-no-cache'])
      expect(wantsFreshAnswer({ cacheControl }), String(cacheControl)).toBe(false);
    expect(wantsFreshAnswer({ pragma: 'no-cache' })).toBe(true);
    expect(wantsFreshAnswer({ pragma: 'no-cache', cacheControl: 'max-age=60' }), 'Cache-Control wins').toBe(false);
    expect(wantsFreshAnswer({ pragma: 'x-no-cache' })).toBe(false);
  });
});
