// Read-modify-write of one item with optimistic concurrency (DEC-ITEM-031): the write sends the
// ETag of what was read as If-Match, and a 412 (another write came first) reads again and
// reapplies the change, so concurrent editors never lose each other's changes.

import type { Collection, ItemOf } from '../sync/types.ts';
import { ServiceError } from './serviceError.ts';

/** An item with the ETag it was answered with; `etag` is undefined when the service sends none. */
export interface TaggedItem<T> {
  item: T;
  etag: string | undefined;
}

export interface EditItemOptions {
  /** Reads and writes in all before giving up with the last 412; default 10. */
  attempts?: number;
  signal?: AbortSignal;
}

/** What editItem needs of the client. */
export interface ItemReadWrite {
  readItem<C extends Collection>(
    collection: C,
    id: string,
    options?: { signal?: AbortSignal },
  ): Promise<TaggedItem<ItemOf<C>> | undefined>;
  replaceItem<C extends Collection>(
    collection: C,
    id: string,
    body: unknown,
    options?: { ifMatch?: string; signal?: AbortSignal },
  ): Promise<TaggedItem<ItemOf<C>>>;
}

/**
 * Reads the item, writes back `edit(item)` with `If-Match: <its ETag>`, and on a 412 starts
 * again from a fresh read, after a short random wait (concurrent editors do not retry in step).
 * `edit` may be called more than once, so it must be a pure function of the item it is given.
 * Throws ServiceError: 404 when the item is gone, 412 when `attempts` ran out, any other error
 * at once. Against a service that sends no ETag the write is unconditional, as such a service
 * offers nothing else.
 */
export async function editItem<C extends Collection>(
  client: ItemReadWrite,
  collection: C,
  id: string,
  edit: (item: ItemOf<C>) => unknown,
  options: EditItemOptions = {},
): Promise<TaggedItem<ItemOf<C>>> {
  const attempts = options.attempts ?? 10;
  if (!Number.isInteger(attempts) || attempts < 1)
    throw new RangeError(`attempts must be a whole number >= 1 (received: ${attempts})`);
  for (let attempt = 1; ; attempt++) {
    const read = await client.readItem(collection, id, { signal: options.signal });
    if (read === undefined) throw new ServiceError(404, `${collection}/${id}`, { message: 'the item is gone' });
    try {
      return await client.replaceItem(collection, id, edit(read.item), { ifMatch: read.etag, signal: options.signal });
    } catch (error) {
      if (!(error instanceof ServiceError) || error.status !== 412 || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 25 * Math.min(attempt, 8)));
    }
  }
}
