// The self-test's conforming variations: the reference service changed in ONE place where the
// interface says "not shown", which a vendor may decide differently and still conform. The
// certification run must pass each of them with no MUST failure, and report the difference from
// our decision as a DECISION deviation (decision-fail on the DEC id). tests/conformance/
// variations.test.ts runs them all at once (one full run) and one at a time (their `checks`).

import type { FaultModifier } from './faultProxy.ts';
import type { TargetVariants, VariantName } from '../model/variants.ts';
import * as m from './modifiers/index.ts';

export interface Variation {
  name: string;
  /** The interface's "not shown" line it exercises. */
  notShown: string;
  /** DEC ids expected as decision deviations. */
  deviations: string[];
  /** Variants the vendor declares in the run's config file (such a variation stays out of the combined run). */
  declares?: Partial<TargetVariants>;
  /** Target variants discovery must find (report value), e.g. `{ updatePath: 'collection' }`. */
  discovers?: Partial<Record<VariantName, string>>;
  modifiers: () => FaultModifier[];
  /** Checks that cannot observe their rules on such a target: they pass, reporting them as not verifiable black-box. */
  unobservable?: string[];
  /** Checks that must pass observing all their rules (no not-verifiable note). */
  observes?: string[];
  /** Limit the targeted run to these checks; default: the whole certification profile. */
  checks?: string[];
  /** Why the suite cannot pass it yet (the tests skip it and say so); remove once it can. */
  pending?: string;
}

export const VARIATIONS: Variation[] = [
  {
    name: 'operatorSpellings',
    notShown:
      'Fields of calendar, contactinfo, files, performers, promotions, seoMetadata, routeInfo and location beyond those named above: not shown.',
    deviations: [],
    modifiers: () => [m.operatorSpellings()],
    checks: ['lists.bare-array', 'lists.size-2000', 'items.detail-not-limited', 'paging.keyset-inclusive'],
  },
  {
    name: 'preModelShapes',
    notShown:
      'Fields of calendar, contactinfo, files, performers, promotions, seoMetadata, routeInfo and location beyond those named above: not shown.',
    // ContactInfo names DEC-ITEM-161 too. DEC-ITEM-011 and DEC-ITEM-163 are seen in the round trip
    // only (ALWAYSOPEN and address points written, read back as ALWAYS and location coordinates).
    deviations: ['DEC-ITEM-011', 'DEC-ITEM-160', 'DEC-ITEM-161', 'DEC-ITEM-162', 'DEC-ITEM-163'],
    modifiers: () => [m.preModelShapes()],
    checks: [
      'lists.bare-array',
      'lists.size-2000',
      'items.detail-not-limited',
      'paging.keyset-inclusive',
      'properties.round-trip',
    ],
  },
  {
    name: 'preModelShapesStrict',
    notShown:
      'Fields of calendar, contactinfo, files, performers, promotions, seoMetadata, routeInfo and location beyond those named above: not shown.',
    // The same vendor refusing our shapes on write (a 400 naming the field, as we refuse its).
    deviations: ['DEC-ITEM-160', 'DEC-ITEM-161', 'DEC-ITEM-162'],
    modifiers: () => [m.preModelShapesStrict()],
  },
  {
    name: 'unknownExtraField',
    notShown:
      'Fields of calendar, contactinfo, files, performers, promotions, seoMetadata, routeInfo and location beyond those named above: not shown.',
    deviations: [],
    modifiers: () => [m.unknownExtraField()],
    checks: [
      'lists.bare-array',
      'items.detail-not-limited',
      'paging.keyset-inclusive',
      'dictionary.root',
      'health.responds',
    ],
  },
  {
    name: 'userorganisationsMap',
    notShown: 'GET /dictionary/userorganisations: Shape beyond these: not shown.',
    deviations: ['DEC-DICT-002'],
    discovers: { userOrganisationsShape: 'map' },
    modifiers: () => [m.userorganisationsMap()],
    checks: ['dictionary.userorganisations', 'dictionary.account-ontologies', 'variants.decisions'],
  },
  {
    name: 'createAnswerEmpty',
    notShown: 'Response body of item creation: not shown.',
    deviations: ['DEC-ITEM-002'],
    discovers: { createdItem: 'location-header' },
    modifiers: () => [m.createAnswerEmpty()],
    checks: [
      'items.create-answer',
      'items.create-read-back',
      'items.update-stamps',
      'items.read-only-fields',
      'filters.trcid',
      'workflow.status-table',
      'variants.decisions',
    ],
  },
  {
    name: 'createAnswerNoLocation',
    notShown: 'Response body of item creation: not shown.',
    deviations: ['DEC-ITEM-002'],
    discovers: { createdItem: 'trcid-lookup' },
    modifiers: () => [m.createAnswerNoLocation()],
    checks: ['items.create-read-back', 'items.update-stamps', 'filters.trcid', 'variants.decisions'],
  },
  {
    name: 'updateOnCollection',
    notShown: 'Path of the update operation (PUT) for items: not shown.',
    deviations: ['DEC-ITEM-001'],
    discovers: { updatePath: 'collection' },
    modifiers: () => [m.updateOnCollection()],
    checks: [
      'items.update-stamps',
      'items.trcid-rules',
      'workflow.transitions',
      'workflow.wrong-booleans',
      'properties.round-trip',
      'variants.decisions',
    ],
  },
  {
    name: 'tokenIdField',
    notShown: 'Account token: the interface names the {tokenId} path parameter but no id member of the token object.',
    deviations: ['DEC-MISC-002'],
    discovers: { tokenIdField: 'tokenId' },
    modifiers: () => [m.tokenIdField()],
    checks: ['tokens.create', 'tokens.delete', 'tokens.admin-only', 'tokens.rotate-secret', 'variants.decisions'],
  },
  {
    name: 'assetPagesFromOne',
    notShown:
      'Complete list of query parameters of the list endpoints, and how `page` combines with `size`: not shown.',
    deviations: ['DEC-LIST-009'],
    discovers: { assetFirstPage: '1' },
    modifiers: () => [m.assetPagesFromOne()],
    checks: ['assets.list-page', 'assets.sort-tiebreaker', 'variants.decisions'],
  },
  {
    name: 'itemPagesFromOne',
    notShown:
      'Complete list of query parameters of the list endpoints, and how `page` combines with `size`: not shown.',
    deviations: ['DEC-LIST-002'],
    discovers: { listFirstPage: '1' },
    modifiers: () => [m.itemPagesFromOne()],
    checks: ['paging.page-number', 'sorting.id-tiebreaker', 'properties.paging-partitions', 'variants.decisions'],
  },
  {
    name: 'statusMovesByPutOnly',
    notShown: 'All other moves between states (for example to `rejected`, `archived`, `deleted`): not shown.',
    deviations: [],
    discovers: { statusMoves: 'rejected=put, archived=put, deleted=put' },
    modifiers: () => [m.statusMovesByPutOnly()],
    checks: [
      'workflow.status-table',
      'workflow.deleted-is-soft',
      'workflow.wrong-booleans',
      'filters.wfstatus',
      'filters.trcid',
      'scope.live-token',
    ],
  },
  {
    name: 'noMovesToEndStates',
    notShown: 'All other moves between states (for example to `rejected`, `archived`, `deleted`): not shown.',
    deviations: [],
    discovers: { statusMoves: 'rejected=unsupported, archived=unsupported, deleted=unsupported' },
    modifiers: () => [m.noMovesToEndStates()],
    unobservable: ['workflow.deleted-is-soft', 'sync.end-to-end', 'filters.wfstatus', 'scope.live-token'],
    checks: [
      'workflow.status-table',
      'workflow.deleted-is-soft',
      'workflow.wrong-booleans',
      'workflow.transitions',
      'properties.booleans-follow-wfstatus',
      'filters.wfstatus',
      'filters.trcid',
      'scope.live-token',
      'sync.end-to-end',
    ],
  },
  {
    name: 'logoutByGet',
    notShown: '/auth/logout: Its HTTP method: not shown.',
    deviations: ['DEC-AUTH-003'],
    discovers: { logoutMethod: 'GET' },
    modifiers: () => [m.logoutByGet()],
    checks: ['sessions.sign-in', 'sessions.scope', 'variants.decisions'],
  },
  {
    name: 'signInFieldNames',
    notShown: 'Request body of sign-in: not shown.',
    deviations: ['DEC-AUTH-001'],
    discovers: { signIn: 'userField=login, passwordField=password' },
    modifiers: () => [m.signInFieldNames()],
    checks: ['sessions.sign-in', 'sessions.refresh', 'variants.decisions'],
  },
  {
    name: 'errorBodiesOtherShape',
    notShown: 'Body shape of statuses other than the size rejection: not shown.',
    deviations: ['DEC-ERR-001'],
    modifiers: () => [m.errorBodiesOtherShape()],
    checks: [
      'errors.unknown-query-parameter',
      'errors.malformed-body',
      'limits.size-cap',
      'security.foreign-item',
      'auth.missing-token-401',
    ],
  },
  {
    name: 'credentialStatuses403',
    notShown: 'Statuses for missing or invalid credentials and for insufficient role: not shown.',
    deviations: ['DEC-ERR-002'],
    modifiers: () => [m.unauthorizedAs403()],
    checks: ['auth.missing-token-401', 'security.no-token-every-operation', 'tokens.admin-only', 'feeds.admin-only'],
  },
  {
    // The suite cannot guess the vendor's member names black-box: undeclared, it finds our shape
    // refused and reports the checks that need a narrowed token as not verifiable.
    name: 'tokenFilterOtherShape',
    notShown: 'Internal structure of `apiTokenFilter` (axes and geographic specs): not shown.',
    deviations: ['DEC-AUTH-004'],
    discovers: { tokenFilter: 'unsupported' },
    modifiers: () => [m.tokenFilterOtherShape()],
    unobservable: ['scope.organisation-filter', 'security.foreign-item', 'webhooks.organisation-filter'],
    checks: [
      'tokens.create',
      'scope.organisation-filter',
      'security.foreign-item',
      'webhooks.delivery-signed',
      'webhooks.organisation-filter',
      'variants.decisions',
    ],
  },
  {
    name: 'tokenFilterOtherShapeDeclared',
    notShown: 'Internal structure of `apiTokenFilter` (axes and geographic specs): not shown.',
    deviations: ['DEC-AUTH-004'],
    declares: { tokenFilter: { organisationsField: 'organisations', statusesField: 'statuses' } },
    observes: ['scope.organisation-filter', 'security.foreign-item', 'webhooks.organisation-filter'],
    modifiers: () => [m.tokenFilterOtherShape()],
    checks: [
      'scope.organisation-filter',
      'security.foreign-item',
      'webhooks.delivery-signed',
      'webhooks.organisation-filter',
      'variants.decisions',
    ],
  },
  {
    name: 'dictionaryRootOtherShape',
    notShown: 'GET /dictionary: Root dictionary collection (rate limited). Response body: not shown.',
    deviations: ['DEC-DICT-001'],
    modifiers: () => [m.dictionaryRootOtherShape()],
    checks: ['dictionary.root'],
  },
];
