import { describe, expect, it } from 'vitest';
import type { Queryable } from '../storage/db.ts';
import { createListPageCache, wantsFreshAnswer } from './listPageCache.ts';

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

/** A render that counts its calls and answers with the call number. */
function counter() {
  const render = async () => Buffer.from(`render ${++render.calls}`);
  render.calls = 0;
  return render;
}

describe('list page cache', () => {
  it('when a page is asked for again at the same version, then the kept answer is sent; at another version, it is rendered again', async () => {
    const store = storeAt(1);
    const cache = createListPageCache(store.db, { maxBytes: 1024 });
    const render = counter();
    expect(String(await cache.answer({ q: 1 }, render))).toBe('render 1');
    expect(String(await cache.answer({ q: 1 }, render))).toBe('render 1');
    expect(String(await cache.answer({ q: 2 }, render)), 'another query').toBe('render 2');
    store.version = 2;
    expect(String(await cache.answer({ q: 1 }, render))).toBe('render 3');
    expect(String(await cache.answer({ q: 1 }, render))).toBe('render 3');
    expect(store.versionReads).toBe(5);
  });

  it('when a fresh answer is asked for, then it is rendered whatever is kept, without reading the version, and not kept', async () => {
    const store = storeAt(1);
    const cache = createListPageCache(store.db, { maxBytes: 1024 });
    const render = counter();
    await cache.answer('q', render);
    expect(String(await cache.answer('q', render, { fresh: true }))).toBe('render 2');
    expect(store.versionReads).toBe(1);
    expect(String(await cache.answer('q', render))).toBe('render 1');
  });

  it('when requests for a page not kept arrive together, then they share one render', async () => {
    const cache = createListPageCache(storeAt(1).db, { maxBytes: 1024 });
    let release!: () => void;
    const released = new Promise<void>((resolve) => { release = resolve; });
    let calls = 0;
    const render = async () => {
      calls++;
      await released;
      return Buffer.from('page');
    };
    const answers = Promise.all([cache.answer('q', render), cache.answer('q', render), cache.answer('q', render)]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    release();
    expect((await answers).map(String)).toEqual(['page', 'page', 'page']);
    expect(calls).toBe(1);
  });

  it('when a render fails, then the error reaches every waiting request and nothing is kept', async () => {
    const cache = createListPageCache(storeAt(1).db, { maxBytes: 1024 });
    const failing = async () => { throw new Error('store down'); };
    await expect(Promise.all([cache.answer('q', failing), cache.answer('q', failing)])).rejects.toThrow('store down');
    expect(String(await cache.answer('q', async () => Buffer.from('after')))).toBe('after');
  });

  it('when the budget is 0, then every request renders and no version is read; a page over an eighth of the budget is not kept', async () => {
    const store = storeAt(1);
    const off = createListPageCache(store.db, { maxBytes: 0 });
    const render = counter();
    await off.answer('q', render);
    await off.answer('q', render);
    expect(render.calls).toBe(2);
    expect(store.versionReads).toBe(0);

    const small = createListPageCache(store.db, { maxBytes: 64 });
    let big = 0;
    const bigRender = async () => Buffer.alloc(9, ++big);
    await small.answer('big', bigRender);
    await small.answer('big', bigRender);
    expect(big).toBe(2);
  });

  it('when the request says Cache-Control no-cache or no-store, in any case or position, then a fresh answer is wanted; other directives do not', () => {
    for (const value of ['no-cache', 'No-Cache', 'max-age=0, no-cache', 'no-store', 'no-cache="x"']) expect(wantsFreshAnswer(value), value).toBe(true);
    for (const value of [undefined, '', 'max-age=60', 'no-transform', 'only-if-cached', 'x-no-cache']) expect(wantsFreshAnswer(value), String(value)).toBe(false);
  });
});
