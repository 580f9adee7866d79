import type { FeedDefinition } from './feedConfig.ts';
import { readPartnerEntries, type PartnerEntry } from './partnerEntries.ts';

// @implements FEED-004, FEED-006
// The fetch phase of a run: which partner documents to fetch and which of their entries the run
// takes (FEED-004…FEED-006). Entries outside the scope are never converted or imported.

export interface RunScope {
  /** Take at most this many entries, in document order (FEED-004). */
  size?: number;
  // @implements FEED-005
  /** Only this sub-feed (FEED-005). */
  feedInfoId?: string;
  /** Only this entry: the partner id or the full externalId; `size` is then ignored (FEED-006). */
  externalID?: string;
}

export type FetchDocument = (url: string) => Promise<unknown>;

export interface CollectedEntries {
  entries: PartnerEntry[];
  /** The externalId asked for with `externalID` when no entry in scope has it. */
  notFound?: string;
}

interface Source {
  url: string;
  forcedFeedInfoId?: string;
  onlyFeedInfoId?: string;
}

/** Fetches the documents the scope needs, stopping as soon as it has what it asked for. */
export async function collectEntries(
  feed: FeedDefinition,
  scope: RunScope,
  fetchDocument: FetchDocument,
): Promise<CollectedEntries> {
  const wanted = scope.externalID === undefined ? undefined : partnerIdOf(feed, scope.externalID);
  const limit = wanted !== undefined ? 1 : scope.size;
  const entries: PartnerEntry[] = [];
  for (const source of sourcesOf(feed, scope.feedInfoId)) {
    const read = readPartnerEntries(await fetchDocument(source.url), {
      url: source.url,
      forcedFeedInfoId: source.forcedFeedInfoId,
    });
    for (const entry of read) {
      if (source.onlyFeedInfoId !== undefined && entry.feedInfoId !== source.onlyFeedInfoId) continue;
      if (wanted !== undefined && entry.partnerId !== wanted) continue;
      entries.push(entry);
      if (limit !== undefined && entries.length >= limit) return { entries };
    }
  }
  return wanted !== undefined ? { entries, notFound: `${feed.name}:${wanted}` } : { entries };
}

/** The partner id in an `externalID` parameter: a full `<feed name>:<id>` loses its prefix. */
function partnerIdOf(feed: FeedDefinition, externalID: string): string {
  const prefix = `${feed.name}:`;
  return externalID.startsWith(prefix) ? externalID.slice(prefix.length) : externalID;
}

/**
 * A sub-feed with its own URL is fetched from there; one without is the entries of the main
 * document carrying its feedInfoId. A full run fetches the main document and every sub-feed URL.
 */
function sourcesOf(feed: FeedDefinition, feedInfoId: string | undefined): Source[] {
  if (feedInfoId !== undefined) {
    const sub = feed.subFeeds.find((s) => s.feedInfoId === feedInfoId);
    return sub?.url !== undefined
      ? [{ url: sub.url, forcedFeedInfoId: sub.feedInfoId }]
      : [{ url: feed.url, onlyFeedInfoId: feedInfoId }];
  }
  return [
    { url: feed.url },
    ...feed.subFeeds.flatMap((s) => (s.url === undefined ? [] : [{ url: s.url, forcedFeedInfoId: s.feedInfoId }])),
  ];
}
