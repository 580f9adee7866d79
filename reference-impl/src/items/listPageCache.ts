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

export interface ListPageCache {
  /**
   * The answer to `query` (anything JSON that determines the page: the storage query with the
   * caller's scope): the one kept at the current content version, else `render()`'s, then kept.
   * Concurrent requests for a page not kept share one render. `fresh`: rendered from the store,
   * neither taken from nor kept in memory.
   */
  answer(query: unknown, render: () => Promise<Buffer>, options?: { fresh?: boolean }): Promise<Buffer>;
}

/** `maxBytes` 0: nothing is kept, and no version is read. */
export function createListPageCache(db: Queryable, options: { maxBytes: number }): ListPageCache {
  if (options.maxBytes <= 0) return { answer: (_query, render) => render() };
  const pages = new ByteLru(options.maxBytes); // of `current` only
  const rendering = new Map<string, Promise<Buffer>>(); // by version and query
  let current: string | undefined;

  const renderAndKeep = async (version: string, key: string, render: () => Promise<Buffer>): Promise<Buffer> => {
    const body = await render();
    // A render of a version another request has already seen replaced is never asked for again.
    if (version === current) pages.set(key, body);
    return body;
  };
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
      if (kept !== undefined) return kept;
      const renderKey = `${version} ${key}`;
      const shared = rendering.get(renderKey);
      if (shared !== undefined) return shared;
      const pending = renderAndKeep(version, key, render).finally(() => rendering.delete(renderKey));
      rendering.set(renderKey, pending);
      return pending;
    },
  };
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
