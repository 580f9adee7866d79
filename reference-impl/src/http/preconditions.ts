import { HttpError } from './HttpError.ts';

// Conditional requests (RFC 9110 §13.1): If-Match on writes, If-None-Match on reads, for every
// representation that carries an ETag (items and asset metadata, DEC-ITEM-031, DEC-ASSET-011;
// asset files, DEC-ASSET-008).

/** One entity tag of a header's list: `W/"…"` or `"…"`, what may stand between the quotes (RFC 9110 §8.8.3). */
const ENTITY_TAG = /\s*(W\/)?("[\x21\x23-\x7e\x80-\xff]*")\s*(?:,|$)/y;

interface EntityTag {
  weak: boolean;
  /** With its quotes. */
  opaque: string;
}

/** `*`, or the header's entity tags; an empty list when the header is not a list of entity tags. */
function entityTags(header: string): '*' | EntityTag[] {
  if (header.trim() === '*') return '*';
  const tags: EntityTag[] = [];
  ENTITY_TAG.lastIndex = 0;
  while (ENTITY_TAG.lastIndex < header.length) {
    const at = ENTITY_TAG.lastIndex;
    const match = ENTITY_TAG.exec(header);
    if (match === null || ENTITY_TAG.lastIndex === at) return [];
    tags.push({ weak: match[1] !== undefined, opaque: match[2]! });
  }
  return tags;
}

/**
 * If-Match (RFC 9110 §13.1.1): true when absent, when `*` and there is a current representation,
 * or when a listed tag equals `current` under strong comparison (a weak tag never does). A header
 * that is no list of entity tags matches nothing: a client that meant a condition never gets an
 * unconditional write.
 */
export function matchesIfMatch(header: string | undefined, current: string | null): boolean {
  if (header === undefined) return true;
  const tags = entityTags(header);
  if (tags === '*') return current !== null;
  return current !== null && tags.some((tag) => !tag.weak && tag.opaque === current);
}

/** If-None-Match (RFC 9110 §13.1.2): `*`, or a listed tag equal to `current` under weak comparison. */
export function matchesIfNoneMatch(header: string | undefined, current: string): boolean {
  if (header === undefined) return false;
  const tags = entityTags(header);
  return tags === '*' || tags.some((tag) => tag.opaque === current.replace(/^W\//, ''));
}

/** The 412 of a write whose If-Match does not hold (DEC-ITEM-031), in the error shape. */
export function preconditionFailed(what: string, header: string): HttpError {
  return new HttpError(412, {
    message: `If-Match ${header} does not match the current ${what}: it changed since it was read (or the header holds no entity tag of it); read it again and reapply the change`,
  });
}
