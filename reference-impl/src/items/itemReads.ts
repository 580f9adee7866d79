import type { OntologyCache } from '../dictionary/ontologyCache.ts';
import type { EntityType } from '../domain/entityRules.ts';
import type { Queryable, RowStreamer } from '../storage/db.ts';
import { getItemById } from '../storage/items/getItemById.ts';
import type { StoredItem } from '../storage/items/itemRow.ts';
import { getRenderedItemById, listItems, streamRenderedItems } from '../storage/items/listItems.ts';
import { canRead, type ItemScopeHolder } from './access.ts';
import { itemEtag } from './itemEtag.ts';
import { createListPageCache, type PageChunks } from './listPageCache.ts';
import type { ListQuery } from './listQuery.ts';
import { RENDERER_VERSION, renderItem, renderItems, renderPage, storedItemJson } from './renderItem.ts';
import { renderingKeyOf } from '../storage/items/renderingKey.ts';
import type { RenderingRefresher } from './renderingRefresher.ts';

// Item reads as the endpoints send them. List pages: kept while the store's content is unchanged
// (listPageCache.ts), else written from the stored renderings (migration 007) as the rows arrive,
// rendering live what has none and asking the refresher to renew those. Detail reads: the stored
// rendering when it is current, else rendered live. Both answer only what the reader may see
// (DEC-ITEM-004).

export interface ItemReads {
  /**
   * The JSON of one list page, in the pieces it is written in (send them as they come).
   * `fresh`: read from the store, neither taken from nor kept in memory.
   */
  listPage(query: ListQuery, options: { fresh: boolean }): Promise<PageChunks>;
  /**
   * One item as the detail read sends it, with its ETag (DEC-ITEM-031); null when there is none
   * `reader` may read.
   */
  detail(entitytype: EntityType, id: string, reader: ItemScopeHolder): Promise<{ json: string; etag: string } | null>;
  /** The stored item (its document, not its rendering); null when there is none `reader` may read. */
  readableItem(entitytype: EntityType, id: string, reader: ItemScopeHolder): Promise<StoredItem | null>;
}

export function createItemReads(deps: {
  db: Queryable & RowStreamer;
  ontologies: OntologyCache;
  renderings: Pick<RenderingRefresher, 'requestRefresh'>;
  /** LIST_CACHE_BYTES; 0 keeps nothing. */
  listCacheBytes: number;
}): ItemReads {
  const { db, ontologies, renderings } = deps;
  const listPages = createListPageCache(db, { maxBytes: deps.listCacheBytes });

  const render = async ({ params, excludePatternDates }: ListQuery): Promise<PageChunks> => {
    // A variant renderings are not stored for: rendered live.
    if (excludePatternDates)
      return [
        Buffer.from(
          JSON.stringify(await renderItems(ontologies, await listItems(db, params), { excludePatternDates })),
        ),
      ];
    // Written as the rows arrive; the query runs when the first piece is taken.
    return renderPage(
      ontologies,
      streamRenderedItems(db, { ...params, rendererVersion: RENDERER_VERSION }),
      (renderedLive) => {
        if (renderedLive > 0) renderings.requestRefresh();
      },
    );
  };
  return {
    listPage: (query, { fresh }) => listPages.answer(query, () => render(query), { fresh }),
    async detail(entitytype, id, reader) {
      const item = await getRenderedItemById(db, { entitytype, id, rendererVersion: RENDERER_VERSION });
      if (item === null || !canRead(reader, item)) return null;
      if (item.renderedBody !== null) {
        return {
          json: storedItemJson(item, item.renderedBody),
          etag: itemEtag(item, item.renderedKey!, ontologies.baseKey),
        };
      }
      // Tagged with the versions of the ontologies it is rendered with, whatever changed meanwhile.
      const owner = (await ontologies.ontologiesForOrganisations([item.userorganisation])).get(item.userorganisation)!;
      return {
        json: JSON.stringify(renderItem(item, { ontologies: owner.indexes })),
        etag: itemEtag(item, renderingKeyOf(RENDERER_VERSION, owner.versions), ontologies.baseKey),
      };
    },
    async readableItem(entitytype, id, reader) {
      const item = await getItemById(db, { entitytype, id });
      return item !== null && canRead(reader, item) ? item : null;
    },
  };
}
