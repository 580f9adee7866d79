import { FeedFetchError } from './fetchPartnerDocument.ts';

// The partner format (DEC-FEED-001): a JSON document `{entries: [...]}` whose entries are
// TRCItem-shaped objects with the partner's own `id` and an optional `feedInfoId`. Reading the
// document checks only that shape; each entry is validated later, on its own, so one bad entry
// is reported in the run and the others still import.

/** Entries one document may hold; more is treated as a broken partner, not imported in part. */
const MAX_ENTRIES_PER_DOCUMENT = 100_000;
/** Longest partner id: `<feed name>:<partner id>` must fit the run report's 300 characters. */
export const MAX_PARTNER_ID_LENGTH = 200;

export interface PartnerEntry {
  /** Where it came from, for messages: `entries[3]` of a URL. */
  position: string;
  /** The partner's id as a string; undefined when the entry has none (reported, never imported). */
  partnerId: string | undefined;
  feedInfoId: string | undefined;
  /** The entry as the partner sent it. */
  raw: unknown;
}

/**
 * The entries of a fetched document, in document order. `forcedFeedInfoId` marks every entry as
 * part of a sub-feed fetched from its own URL. Throws FeedFetchError when the document is not
 * `{entries: [...]}`.
 */
export function readPartnerEntries(doc: unknown, source: { url: string; forcedFeedInfoId?: string }): PartnerEntry[] {
  const entries =
    typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? (doc as { entries?: unknown }).entries : undefined;
  if (!Array.isArray(entries)) {
    throw new FeedFetchError(
      `the document at ${source.url} is not a partner feed: expected a JSON object {entries: [...]} (DEC-FEED-001), received ${describeShape(doc)}`,
    );
  }
  if (entries.length > MAX_ENTRIES_PER_DOCUMENT) {
    throw new FeedFetchError(
      `the document at ${source.url} holds ${entries.length} entries, above the limit of ${MAX_ENTRIES_PER_DOCUMENT}`,
    );
  }
  return entries.map((raw, index) => {
    const e = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    const id =
      typeof e.id === 'string'
        ? e.id.trim()
        : typeof e.id === 'number' && Number.isSafeInteger(e.id)
          ? String(e.id)
          : '';
    const feedInfoId = source.forcedFeedInfoId ?? (typeof e.feedInfoId === 'string' ? e.feedInfoId : undefined);
    return { position: `entries[${index}] of ${source.url}`, partnerId: id === '' ? undefined : id, feedInfoId, raw };
  });
}

function describeShape(doc: unknown): string {
  if (Array.isArray(doc)) return 'an array';
  if (doc === null) return 'null';
  if (typeof doc !== 'object') return typeof doc;
  const keys = Object.keys(doc);
  return keys.length === 0
    ? 'an empty object'
    : `an object with ${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', …' : ''}`;
}
