import { createHash } from 'node:crypto';
import type { StoredItem } from '../storage/items/itemRow.ts';

// @implements DEC-ITEM-031
// The strong ETag of an item's representation (DEC-ITEM-031). A detail read's bytes are fixed by
// the stored item, the renderer and the ontologies that fill in its labels, and by nothing else
// (not by the reader: every reader who may see it gets the same bytes). So the tag is a digest of
//   - the item's id and `lastupdated`: every write stamps a new one, unique across the store (DEC-ITEM-009);
//   - the rendering key (migration 007): the renderer's version and the owning account's ontology
//     versions, which an ontology change advances (ONTO-006);
//   - the base ontologies' versions, which ship with the service and fill in the other items.
// It is computed from these, never from the bytes, so that a write can check If-Match under the
// item write lock with one small query and no rendering.

/** `"<27 base64url characters>"`: 162 bits of SHA-256, strong (no `W/`). */
export function itemEtag(item: Pick<StoredItem, 'id' | 'lastupdated'>, renderingKey: string, baseKey: string): string {
  const inputs = `${item.id}\n${item.lastupdated.getTime()}\n${renderingKey}\n${baseKey}`;
  return `"${createHash('sha256').update(inputs).digest('base64url').slice(0, 27)}"`;
}
