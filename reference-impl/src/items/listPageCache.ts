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
// PostgreSQL, like the ontology cache.

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
  const pages = new ByteLru(options.maxBytes);
  const rendering = new Map<string, Promise<Buffer>>();

  const renderAndKeep = async (key: string, render: () => Promise<Buffer>): Promise<Buffer> => {
    const body = await render();
    pages.set(key, body);
    return body;
  };
  return {
    async answer(query, render, { fresh = false } = {}) {
      if (fresh) return render();
      // Older versions' keys are never asked for again: the LRU lets them go.
      const key = `${await readContentVersion(db)} ${JSON.stringify(query)}`;
      const kept = pages.get(key) ?? rendering.get(key);
      if (kept !== undefined) return kept;
      const pending = renderAndKeep(key, render).finally(() => rendering.delete(key));
      rendering.set(key, pending);
      return pending;
    },
  };
}

/** Whether the request asks for an answer from the store itself (`Cache-Control: no-cache` or `no-store`, RFC 9111). */
export function wantsFreshAnswer(cacheControl: string | undefined): boolean {
  return cacheControl !== undefined && /(?:^|,)\s*no-(?:cache|store)\s*(?:[,=]|$)/i.test(cacheControl);
}
