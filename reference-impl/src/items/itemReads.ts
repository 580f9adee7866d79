import type { OntologyCache } from '../dictionary/ontologyCache.ts';
import type { Queryable } from '../storage/db.ts';
import { listItems, listRenderedItems } from '../storage/items/listItems.ts';
import { createListPageCache, type PageChunks } from './listPageCache.ts';
import type { ListQuery } from './listQuery.ts';
import { RENDERER_VERSION, renderItems, renderPage } from './renderItem.ts';
import type { RenderingRefresher } from './renderingRefresher.ts';

// Item list pages as the list endpoints send them: kept while the store's content is unchanged
// (listPageCache.ts), else read from the stored renderings (migration 007), rendering live what
// has none and asking the refresher to renew those.

export interface ItemReads {
  /**
   * The JSON of one list page, in the pieces it is written in (send them as they come).
   * `fresh`: read from the store, neither taken from nor kept in memory.
   */
  listPage(query: ListQuery, options: { fresh: boolean }): Promise<PageChunks>;
}

export function createItemReads(deps: {
  db: Queryable;
  ontologies: OntologyCache;
  renderings: Pick<RenderingRefresher, 'requestRefresh'>;
  /** LIST_CACHE_BYTES; 0 keeps nothing. */
  listCacheBytes: number;
}): ItemReads {
  const { db, ontologies, renderings } = deps;
  const listPages = createListPageCache(db, { maxBytes: deps.listCacheBytes });

  const render = async ({ params, excludePatternDates }: ListQuery): Promise<Iterable<Buffer>> => {
    // A variant renderings are not stored for: rendered live.
    if (excludePatternDates)
      return [
        Buffer.from(
          JSON.stringify(await renderItems(ontologies, await listItems(db, params), { excludePatternDates })),
        ),
      ];
    const page = await renderPage(
      ontologies,
      await listRenderedItems(db, { ...params, rendererVersion: RENDERER_VERSION }),
    );
    if (page.renderedLive > 0) renderings.requestRefresh();
    return page.chunks;
  };
  return {
    listPage: (query, { fresh }) => listPages.answer(query, () => render(query), { fresh }),
  };
}
