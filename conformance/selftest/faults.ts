// The self-test's fault table: each fault (a named modifier of the fault proxy), the rule family
// it breaks, the requirement ids the suite must fail on, and the checks to run (`--only`) so a
// fault costs seconds, not a full run. tests/conformance/selftest.test.ts runs them one at a time
// against the reference service; selftest/README.md shows the table.

import type { FaultModifier } from './faultProxy.ts';
import * as m from './modifiers/index.ts';
import type { SecretBook } from './traffic.ts';

export interface FaultEnv {
  tokens: { consumer: string; full: string; admin: string };
  secrets: SecretBook;
}

export interface FaultCase {
  /** The modifier's name (as it counts in the proxy's `applied`). */
  name: string;
  family: string;
  /** What the broken service does. */
  fault: string;
  /** Requirement ids the suite must fail. */
  detects: readonly string[];
  /** Other requirement ids the same fault breaks as well (failing there too is right). */
  alsoBreaks?: readonly string[];
  /** Check ids to run. */
  checks: readonly string[];
  make(env: FaultEnv): FaultModifier[];
}

export const FAULTS: readonly FaultCase[] = [
  // ------------------------------------------------------------ lists, paging, sorting, filters
  { name: 'listWrappedInObject', family: 'LIST', fault: 'list answers wrapped in {"items": […]}', detects: ['LIST-001'], checks: ['lists.bare-array'], make: () => [m.listWrappedInObject()] },
  { name: 'detailAsList', family: 'DETAIL', fault: 'a detail read answers a one-element array', detects: ['DETAIL-001'], checks: ['items.detail-not-limited'], make: () => [m.detailAsList()] },
  { name: 'dropLastOfFullPage', family: 'PAGE', fault: 'a full page loses its last item, so it looks like the last page', detects: ['PAGE-001'], alsoBreaks: ['PAGE-003', 'PAGE-004', 'FILTER-001'], checks: ['paging.keyset-inclusive'], make: () => [m.dropLastOfFullPage()] },
  { name: 'exclusiveLastupdated', family: 'FILTER', fault: 'lastupdated is exclusive (>) instead of inclusive (>=)', detects: ['FILTER-001'], alsoBreaks: ['PAGE-001', 'PAGE-003', 'PAGE-004'], checks: ['filters.lastupdated-inclusive'], make: () => [m.exclusiveLastupdated()] },
  { name: 'exclusiveLastupdated', family: 'PAGE', fault: 'lastupdated is exclusive: the keyset boundary item does not come back', detects: ['PAGE-004'], alsoBreaks: ['PAGE-001', 'PAGE-003', 'FILTER-001'], checks: ['paging.keyset-inclusive'], make: () => [m.exclusiveLastupdated()] },
  { name: 'ignoreSortOrder', family: 'SORT', fault: 'sortOrder ignored: always DESC', detects: ['SORT-003'], alsoBreaks: ['SORT-001'], checks: ['sorting.fields'], make: () => [m.ignoreSortOrder()] },
  { name: 'ignoreSortField', family: 'SORT', fault: 'sortField ignored: always lastupdated', detects: ['SORT-001'], alsoBreaks: ['SORT-003'], checks: ['sorting.fields'], make: () => [m.ignoreSortField()] },
  { name: 'sortOrderCaseSensitive', family: 'DEC-LIST', fault: 'sortOrder "asc" refused: only upper case', detects: ['DEC-LIST-004'], checks: ['sorting.order-letter-case'], make: () => [m.sortOrderCaseSensitive()] },
  { name: 'noIdTiebreaker', family: 'DEC-LIST', fault: 'equal sort values in descending id order (no id tiebreaker)', detects: ['DEC-LIST-003'], checks: ['sorting.id-tiebreaker'], make: () => [m.noIdTiebreaker()] },
  { name: 'ignoreFilter(wfstatus)', family: 'FILTER', fault: 'the wfstatus filter is ignored', detects: ['FILTER-002'], checks: ['filters.wfstatus'], make: () => [m.ignoreFilter('wfstatus')] },
  { name: 'ignoreFilter(published)', family: 'FILTER', fault: 'the published filter is ignored', detects: ['FILTER-003'], checks: ['filters.published'], make: () => [m.ignoreFilter('published')] },
  { name: 'ignoreFilter(trcid)', family: 'FILTER', fault: 'the trcid filter is ignored', detects: ['FILTER-004'], checks: ['filters.trcid'], make: () => [m.ignoreFilter('trcid')] },
  { name: 'pageSizeLimit1000', family: 'LIMIT', fault: 'size=2000 refused: the page size is capped at 1000', detects: ['LIMIT-001'], checks: ['lists.size-2000'], make: () => [m.pageSizeLimit1000()] },
  { name: 'sizeCapLenient', family: 'LIMIT', fault: 'after 1 November 2026 a size above 2000 still answers 200', detects: ['LIMIT-003'], alsoBreaks: ['ERR-001'], checks: ['limits.size-cap'], make: () => [m.sizeCapLenient()] },
  { name: 'sizeCapWrongMessage', family: 'ERR', fault: 'the size rejection is worded differently', detects: ['ERR-001'], checks: ['limits.size-cap'], make: () => [m.sizeCapWrongMessage()] },

  // ------------------------------------------------------------ items, workflow, scope
  { name: 'dropEntitytype', family: 'ITEM', fault: 'items come without entitytype (schema violation)', detects: ['ITEM-004'], alsoBreaks: ['ITEM-001', 'ITEM-028', 'VER-002'], checks: ['lists.own-entity-type'], make: () => [m.dropEntitytype()] },
  { name: 'legacyEventGroupType', family: 'VER', fault: 'event groups come as EVENEMENTGROEP', detects: ['VER-002'], alsoBreaks: ['ITEM-001', 'ITEM-004', 'ITEM-028'], checks: ['lists.own-entity-type'], make: () => [m.legacyEventGroupType()] },
  { name: 'draftNeedsTrcid', family: 'WRITE', fault: 'a draft without trcid is refused with 400', detects: ['WRITE-001'], alsoBreaks: ['ITEM-021'], checks: ['items.create-read-back'], make: () => [m.draftNeedsTrcid()] },
  { name: 'createAnswers200', family: 'DEC-ITEM', fault: 'a creation answers 200 without Location', detects: ['DEC-ITEM-002'], checks: ['items.create-answer'], make: () => [m.createAnswers200()] },
  { name: 'flipPublishedBoolean', family: 'WF', fault: 'published is the opposite of what wfstatus says', detects: ['WF-010'], alsoBreaks: ['WF-011', 'WF-002', 'WF-003', 'WF-007', 'WF-012', 'ITEM-017'], checks: ['workflow.status-table'], make: () => [m.flipPublishedBoolean()] },
  { name: 'offlineFollowsPublished', family: 'WF', fault: 'offline equals published instead of its negation', detects: ['WF-011'], alsoBreaks: ['WF-010', 'WF-002', 'WF-003', 'WF-007', 'WF-012', 'ITEM-017'], checks: ['workflow.status-table'], make: () => [m.offlineFollowsPublished()] },
  { name: 'liveTokenSeesAll', family: 'SCOPE', fault: 'a live token is served archived and deleted items', detects: ['AUTH-005', 'SCOPE-001'], alsoBreaks: ['WF-005'], checks: ['scope.live-token'], make: ({ tokens }) => [m.liveTokenSeesAll({ live: tokens.consumer, full: tokens.full })] },
  { name: 'liveTokenSeesAll', family: 'SYNC', fault: 'a live token is served archived and deleted items: removals reach it', detects: ['SYNC-005'], checks: ['sync.end-to-end'], make: ({ tokens }) => [m.liveTokenSeesAll({ live: tokens.consumer, full: tokens.full })] },
  { name: 'acceptUnknownTokens', family: 'AUTH', fault: 'a missing or unknown token is served (no 401)', detects: ['AUTH-002'], checks: ['auth.missing-token-401'], make: ({ tokens }) => [m.acceptUnknownTokens({ consumer: tokens.consumer, known: [tokens.full, tokens.admin] })] },
  { name: 'unauthorizedAs403', family: 'DEC-ERR', fault: 'a missing token is refused with 403 instead of 401', detects: ['DEC-ERR-002'], checks: ['auth.missing-token-401'], make: () => [m.unauthorizedAs403()] },
  { name: 'healthNeedsToken', family: 'DEC-MISC', fault: 'the health check refuses a request without token', detects: ['DEC-MISC-001'], checks: ['health.responds'], make: () => [m.healthNeedsToken()] },
  { name: 'jsonAsTextPlain', family: 'API', fault: 'JSON answers labelled text/plain', detects: ['API-001'], alsoBreaks: ['DICT-006', 'DEC-DICT-001', 'DEC-DICT-012'], checks: ['dictionary.root'], make: () => [m.jsonAsTextPlain()] },

  // ------------------------------------------------------------ ontology, dictionary
  { name: 'keepWrittenTranslations', family: 'ONTO', fault: 'labels sent on write come back instead of the ontology\'s', detects: ['ONTO-005'], alsoBreaks: ['ONTO-004'], checks: ['ontology.fill-in'], make: () => [m.keepWrittenTranslations()] },
  { name: 'staleOntologyLabels', family: 'ONTO', fault: 'type labels that are not the ontology\'s', detects: ['ONTO-002'], alsoBreaks: ['ONTO-008', 'DICT-007'], checks: ['ontology.fill-in'], make: () => [m.staleOntologyLabels()] },
  { name: 'yesValueLowercase', family: 'DT', fault: 'a yes category reads "true" instead of "True"', detects: ['DT-001'], checks: ['ontology.datatypes'], make: () => [m.yesValueLowercase()] },
  { name: 'userorganisationsUnsorted', family: 'DEC-DICT', fault: 'userorganisations not sorted', detects: ['DEC-DICT-012'], checks: ['dictionary.userorganisations'], make: () => [m.userorganisationsUnsorted()] },
  { name: 'userorganisationsWithoutAccount', family: 'DICT', fault: 'userorganisations without their accountId', detects: ['DICT-005'], alsoBreaks: ['DEC-DICT-002'], checks: ['dictionary.userorganisations'], make: () => [m.userorganisationsWithoutAccount()] },

  // ------------------------------------------------------------ assets, routes, feeds, sessions
  { name: 'assetsNoIdTiebreaker', family: 'ASSET', fault: 'assets with equal sort values in an unstable order (no id tiebreaker)', detects: ['ASSET-013'], checks: ['assets.sort-tiebreaker'], make: () => [m.assetsNoIdTiebreaker()] },
  { name: 'assetsLastupdatedUtc', family: 'ASSET', fault: 'assets lastupdated without offset read as UTC, not Amsterdam', detects: ['ASSET-009'], checks: ['assets.lastupdated-filter'], make: () => [m.assetsLastupdatedUtc()] },
  { name: 'oversizeAs400', family: 'ERR', fault: 'an oversized upload is a 400 instead of 413', detects: ['ERR-003'], checks: ['assets.rejects-oversize'], make: () => [m.oversizeAs400()] },
  { name: 'geojsonLatLon', family: 'ROUTE', fault: 'GeoJSON positions as [lat, lon]', detects: ['ROUTE-001'], checks: ['routes-export.geojson'], make: () => [m.geojsonLatLon()] },
  { name: 'feedsOpenToConsumers', family: 'FEED', fault: 'a consumer token may start a feed run', detects: ['FEED-003'], checks: ['feeds.admin-only'], make: ({ tokens }) => [m.feedsOpenToConsumers(tokens)] },
  { name: 'feedItemsLive', family: 'WF', fault: 'a new feed item is live at once (approved, published) instead of waiting in readyforvalidation', detects: ['WF-006'], checks: ['feeds.import-new'], make: () => [m.feedItemsLive()] },
  { name: 'feedOverwritesApproved', family: 'FEED', fault: 'a feed update overwrites an approved item in full (the editor\'s title, description and files lost)', detects: ['FEED-002'], checks: ['feeds.approved-keeps-editor-changes'], make: () => [m.feedOverwritesApproved()] },
  { name: 'feedSizeIgnored', family: 'FEED', fault: 'fetchAndConvertOnce ignores size and pulls every entry', detects: ['FEED-004'], checks: ['feeds.size-caps'], make: () => [m.feedSizeIgnored()] },
  { name: 'signinWithoutRefreshToken', family: 'SESSION', fault: 'the sign-in answer has no refresh_token', detects: ['SESSION-001'], checks: ['sessions.sign-in'], make: () => [m.signinWithoutRefreshToken()] },

  // ------------------------------------------------------------ tokens and webhooks
  { name: 'secretShownAgainOnPut', family: 'TOKEN', fault: 'a PUT on a webhook token shows its signingSecret again', detects: ['TOKEN-002'], checks: ['tokens.update-callback'], make: ({ secrets }) => [m.secretShownAgainOnPut(secrets)] },
  { name: 'signWithOldSecret', family: 'TOKEN', fault: 'after rotate-secret, deliveries are signed with the old secret', detects: ['TOKEN-010'], checks: ['tokens.rotate-secret'], make: ({ secrets }) => [m.signWithOldSecret(secrets)] },
  { name: 'signWithoutTimestamp', family: 'HOOK', fault: 'the signature covers the body only, not "<timestamp>.<body>"', detects: ['HOOK-013'], alsoBreaks: ['AUTH-009'], checks: ['webhooks.delivery-signed'], make: ({ secrets }) => [m.signWithoutTimestamp((url) => secrets.current(url))] },
  { name: 'uppercaseHexSignature', family: 'HOOK', fault: 'the signature\'s hex digest in upper case', detects: ['HOOK-011'], checks: ['webhooks.delivery-signed'], make: () => [m.uppercaseHexSignature()] },
  { name: 'wrongActionType', family: 'HOOK', fault: 'UPDATED and DELETED swapped (re-signed)', detects: ['HOOK-006'], checks: ['webhooks.event-types'], make: ({ secrets }) => [m.wrongActionType(secrets)] },
  { name: 'resourceUriAliveAfterDelete', family: 'HOOK', fault: 'a deleted item still reads 200 at its resourceUri', detects: ['HOOK-004'], checks: ['webhooks.event-types'], make: () => [m.resourceUriAliveAfterDelete()] },
  { name: 'newDeliveryIdOnRetry', family: 'HOOK', fault: 'a retry carries a new X-Service-Delivery', detects: ['HOOK-012'], checks: ['retries.transient'], make: () => [m.newDeliveryIdOnRetry()] },
  { name: 'noRetryAfter5xx', family: 'HOOK', fault: 'a 5xx, timeout or hang-up is never retried', detects: ['HOOK-018'], checks: ['retries.transient'], make: () => [m.noRetryAfter5xx()] },
  { name: 'wrongWebhookUserAgent', family: 'DEC-HOOK', fault: 'deliveries with another User-Agent', detects: ['DEC-HOOK-008'], checks: ['retries.transient'], make: () => [m.wrongWebhookUserAgent()] },
  { name: 'retryAfter4xx', family: 'HOOK', fault: 'a delivery refused with 4xx is sent again', detects: ['HOOK-020'], checks: ['retries.permanent'], make: () => [m.retryAfter4xx()] },

  // ------------------------------------------------------------ rate limits (last: they drain the budget)
  { name: 'omitRateLimitHeaders', family: 'RATE', fault: 'no X-RateLimit-* headers on limited endpoints', detects: ['RATE-006'], alsoBreaks: ['RATE-003', 'DEC-RATE-002', 'DEC-RATE-005'], checks: ['ratelimits.headers'], make: () => [m.omitRateLimitHeaders()] },
  { name: 'unlimitedEndpointsLimited(detail)', family: 'DETAIL', fault: 'detail reads answer 429 above 10 a second', detects: ['DETAIL-002'], alsoBreaks: ['RATE-005'], checks: ['ratelimits.unlimited'], make: () => [m.unlimitedEndpointsLimited('detail')] },
  { name: 'unlimitedEndpointsLimited(health)', family: 'HEALTH', fault: 'the health check answers 429 above 10 a second', detects: ['HEALTH-001'], alsoBreaks: ['RATE-005'], checks: ['ratelimits.unlimited'], make: () => [m.unlimitedEndpointsLimited('health')] },
  { name: 'throttleMessageReworded', family: 'DEC-RATE', fault: 'the 429 message worded differently', detects: ['DEC-RATE-003'], checks: ['ratelimits.burst'], make: () => [m.throttleMessageReworded()] },
  { name: 'omitRetryAfter', family: 'RATE', fault: 'a 429 without Retry-After', detects: ['RATE-004'], alsoBreaks: ['ERR-005'], checks: ['ratelimits.burst'], make: () => [m.omitRetryAfter()] },
  { name: 'throttleAs503', family: 'ERR', fault: 'throttling answers 503 instead of 429', detects: ['ERR-005'], alsoBreaks: ['RATE-004', 'RATE-001'], checks: ['ratelimits.burst'], make: () => [m.throttleAs503()] },
];
