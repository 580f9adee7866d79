import { ByteLru } from '../cache/byteLru.ts';
import type { Queryable } from '../storage/db.ts';
import { readContentVersion } from '../storage/items/contentVersion.ts';

// List answers kept per instance and sent again while nothing they are made of has changed, so that
// clients polling the same page cost one tiny query instead of the list query and its texts.
//
// Exact on every instance at once: before each answer the store's content version (migration 010)
// is read, one primary-key row that changes in the same commit as any item, ontology override or
// organisation, and a page is only sent again under the version it was rendered at. The version is
// read before the page, so a write committing in between makes the page newer than its version,
// never older: at worst it is rendered once more. No listener connection, the same on PGlite and
// PostgreSQL, like the ontology cache. Only the pages of the version read last are kept: a new
// version makes all others unreachable, so they go at once instead of filling the budget.

/** A page's UTF-8 pieces, made as they are taken (items/renderItem.ts `renderPage`), or already made. */
export type PageChunks = AsyncIterable<Buffer> | Iterable<Buffer>;

export interface ListPageCache {
  /**
   * The answer to `query` (anything JSON that determines the page: the storage query with the
   * caller's scope): the one kept at the current content version, else `render()`'s, kept once
   * it is whole. Concurrent requests for a page not kept share one render, each reading its pieces
   * as they are made. `fresh`: rendered from the store, neither taken from nor kept in memory.
   * Read each answer, to its end or until stopping early (its iterator's `return`): a render that
   * every reader stopped is dropped, one never read is kept until someone reads it to the end.
   */
  answer(query: unknown, render: () => Promise<PageChunks>, options?: { fresh?: boolean }): Promise<PageChunks>;
}

/** `maxBytes` 0: nothing is kept, and no version is read. */
export function createListPageCache(db: Queryable, options: { maxBytes: number }): ListPageCache {
  if (options.maxBytes <= 0) return { answer: (_query, render) => render() };
  const pages = new ByteLru(options.maxBytes); // of `current` only
  const rendering = new Map<string, Promise<SharedRender>>(); // by version and query
  let current: string | undefined;

  return {
    async answer(query, render, { fresh = false } = {}) {
      if (fresh) return render();
      const version = await readContentVersion(db);
      if (version !== current) {
        current = version;
        pages.clear();
      }
      const key = JSON.stringify(query);
      const kept = pages.get(key);
      if (kept !== undefined) return [kept];
      const renderKey = `${version} ${key}`;
      let shared = rendering.get(renderKey);
      if (shared === undefined) {
        const forget = () => {
          if (rendering.get(renderKey) === shared) rendering.delete(renderKey);
        };
        shared = render().then(
          (chunks) =>
            new SharedRender(chunks, {
              // A render of a version another request has already seen replaced is never asked for again.
              // Joined only when it will be kept: a page too large for the budget is not copied.
              whole: (pieces, bytes) => {
                forget();
                if (version === current && pages.accepts(key, bytes)) pages.set(key, Buffer.concat(pieces, bytes));
              },
              // Failed, or left unfinished by every reader: the next request renders again.
              dropped: forget,
            }),
          (error: unknown) => {
            forget();
            throw error;
          },
        );
        rendering.set(renderKey, shared);
      }
      return (await shared).reader();
    },
  };
}

/**
 * One render read by every request that asked for it while it was made: the pieces are made once,
 * by whichever reader is first to need them, and kept for the others; its pieces are handed to
 * `whole` when the last piece is made. An error is every reader's.
 */
class SharedRender {
  readonly #made: Buffer[] = [];
  #bytes = 0;
  /** Undefined once the last piece is made, or once every reader has stopped before it. */
  #source: AsyncIterator<Buffer> | Iterator<Buffer> | undefined;
  /** The piece being made, which every reader waiting for it awaits. */
  #making: Promise<void> | undefined;
  #error: { error: unknown } | undefined;
  #readers = 0;
  readonly #events: { whole(pieces: readonly Buffer[], bytes: number): void; dropped(): void };

  constructor(chunks: PageChunks, events: { whole(pieces: readonly Buffer[], bytes: number): void; dropped(): void }) {
    this.#source = Symbol.asyncIterator in chunks ? chunks[Symbol.asyncIterator]() : chunks[Symbol.iterator]();
    this.#events = events;
  }

  /** A reader from the first piece on; it counts from now, so read it to its end or stop it (`return`). */
  reader(): AsyncIterable<Buffer> {
    this.#readers++;
    let index = 0;
    let stopped = false;
    const stop = async () => {
      if (stopped) return;
      stopped = true;
      if (--this.#readers > 0 || this.#source === undefined || this.#error !== undefined) return;
      // Left unfinished by every reader: nobody reads it again, so its source (a query) stops.
      const source = this.#source;
      this.#source = undefined;
      this.#events.dropped();
      await Promise.resolve(source.return?.()).catch(() => {});
    };
    const pieces: AsyncIterator<Buffer> = {
      next: async () => {
        if (stopped) return { done: true, value: undefined };
        let piece: Buffer | undefined;
        try {
          piece = await this.#piece(index++);
        } catch (error) {
          await stop();
          throw error;
        }
        if (piece !== undefined) return { done: false, value: piece };
        await stop();
        return { done: true, value: undefined };
      },
      return: async () => {
        await stop();
        return { done: true, value: undefined };
      },
    };
    return { [Symbol.asyncIterator]: () => pieces };
  }

  /** The piece at `index`, made now if it is the next one; undefined after the last. */
  async #piece(index: number): Promise<Buffer | undefined> {
    for (;;) {
      if (index < this.#made.length) return this.#made[index];
      if (this.#error !== undefined) throw this.#error.error;
      if (this.#source === undefined) return undefined;
      this.#making ??= this.#makeNext(this.#source).finally(() => (this.#making = undefined));
      await this.#making;
    }
  }

  async #makeNext(source: AsyncIterator<Buffer> | Iterator<Buffer>): Promise<void> {
    try {
      const next = await source.next();
      if (next.done) {
        this.#source = undefined;
        this.#events.whole(this.#made, this.#bytes);
      } else {
        this.#made.push(next.value);
        this.#bytes += next.value.length;
      }
    } catch (error) {
      this.#error = { error };
      this.#events.dropped();
    }
  }
}

/**
 * Whether the request asks for an answer from the store itself: `Cache-Control: no-cache` or
 * `no-store`, or, without Cache-Control, HTTP/1.0's `Pragma: no-cache` (RFC 9111 5.2.1, 5.4).
 */
export function wantsFreshAnswer(headers: { cacheControl?: string; pragma?: string }): boolean {
  if (headers.cacheControl !== undefined)
    return /(?:^|,)\s*no-(?:cache|store)\s*(?:[,=]|$)/i.test(headers.cacheControl);
  return headers.pragma !== undefined && /(?:^|,)\s*no-cache\s*(?:,|$)/i.test(headers.pragma);
}
