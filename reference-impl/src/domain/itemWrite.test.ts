import { describe, expect, it } from 'vitest';
import { stripCategoriesForWrite } from '../dictionary/stripCategoriesForWrite.ts';
import { RuleViolation } from './ruleViolation.ts';
import { prepareItemWrite, sortTitle, type PrepareItemWriteParams, type WritingToken } from './itemWrite.ts';

const token: WritingToken = { organisations: ['org-a', 'org-b'], accountOrganisations: ['org-x', 'org-b', 'org-a'] };

function prepare(body: unknown, overrides: Partial<PrepareItemWriteParams> = {}) {
  return prepareItemWrite({
    collection: 'events',
    body,
    token,
    stripCategories: stripCategoriesForWrite,
    newUuid: () => '00000000-0000-4000-8000-000000000001',
    ...overrides,
  });
}

function caught(fn: () => unknown): RuleViolation {
  try {
    fn();
  } catch (error) {
    if (error instanceof RuleViolation) return error;
    throw error;
  }
  throw new Error('expected an RuleViolation');
}

describe('prepareItemWrite on create', () => {
  it('when every field is absent, then the item gets generated and default values [ITEM-021] [WRITE-001] [WF-007] [DEC-ITEM-006] [DEC-ITEM-007]', () => {
    expect(prepare({})).toEqual({
      entitytype: 'EVENEMENT',
      trcid: 'trc-00000000-0000-4000-8000-000000000001',
      wfstatus: 'readyforvalidation',
      userorganisation: 'org-b',
      externalId: null,
      slug: null,
      title: null,
      doc: {},
    });
  });

  it('when the body sets server fields and legacy booleans, then they are ignored and isprivate is dropped [DEC-ITEM-005] [ITEM-018] [WF-013]', () => {
    const prepared = prepare({
      id: '11111111-1111-4111-8111-111111111111',
      creationdate: '2020-01-01T00:00:00.000Z',
      lastupdated: '2020-01-01T00:00:00.000Z',
      published: true,
      deleted: false,
      offline: false,
      isprivate: true,
      wfstatus: 'rejected',
      seoMetadata: { seoDetails: [{ metaTitle: 'SEO' }], schemaOrgJsonLd: '{}', schemaOrg: { '@type': 'Event' } },
    });
    expect(prepared.wfstatus).toBe('rejected');
    expect(prepared.doc).toEqual({ seoMetadata: { seoDetails: [{ metaTitle: 'SEO' }] } });
  });

  it('when categories carry labels, datatype and translations, then only ids and values are kept [DEC-ITEM-005] [ONTO-005]', () => {
    const prepared = prepare({
      trcItemCategories: {
        types: [{ catid: '2.1.3', isDefault: true, categoryTranslations: [{ lang: 'nl', label: 'Concert' }] }],
        categories: [
          {
            catid: 'p-1',
            datatype: 'choice',
            valueid: 'p-1-02',
            value: 'Ja',
            valueCategoryTranslations: [{ lang: 'nl', label: 'Ja' }],
          },
        ],
      },
    });
    expect(prepared.doc.trcItemCategories).toEqual({
      types: [{ catid: '2.1.3', isDefault: true }],
      categories: [{ catid: 'p-1', valueid: 'p-1-02', value: 'Ja' }],
    });
  });

  it('when trcid and userorganisation are given, then they are used [DEC-ITEM-006] [DEC-ITEM-007]', () => {
    expect(prepare({ trcid: 'trc-eigen', userorganisation: 'org-a' })).toMatchObject({
      trcid: 'trc-eigen',
      userorganisation: 'org-a',
    });
  });

  it("when userorganisation is not one of the token's, then it is a 403 [DEC-ITEM-007]", () => {
    const error = caught(() => prepare({ userorganisation: 'org-x' }));
    expect(error.kind).toBe('forbidden');
    expect(error.message).toContain('"org-x"');
  });

  it("when a super-admin token writes, then any organisation is allowed and the account's first is the default [DEC-ITEM-007] [DEC-AUTH-005]", () => {
    const admin: WritingToken = { organisations: 'all', accountOrganisations: ['org-x'] };
    expect(prepare({ userorganisation: 'anything' }, { token: admin }).userorganisation).toBe('anything');
    expect(prepare({}, { token: admin }).userorganisation).toBe('org-x');
    expect(caught(() => prepare({}, { token: { organisations: 'all', accountOrganisations: [] } })).kind).toBe(
      'invalid',
    );
  });

  it('when the entity type belongs to another collection, then it is a 400; EVENEMENTGROEP becomes EVENTGROUP [DEC-ITEM-008] [VER-002]', () => {
    expect(caught(() => prepare({ entitytype: 'ROUTE' })).kind).toBe('invalid');
    expect(prepare({ entitytype: 'EVENEMENTGROEP' }, { collection: 'eventgroups' }).entitytype).toBe('EVENTGROUP');
    expect(prepare({}, { collection: 'venues' }).entitytype).toBe('VENUE');
  });

  it('when a location carries event fields or a child link, then it is a 400 naming them [ITEM-024] [DEC-ITEM-015] [DEC-ITEM-013]', () => {
    const error = caught(() =>
      prepare(
        { performers: [{ label: 'X' }], trcitemRelation: { links: [{ linkType: 'child', trcid: 'y' }] } },
        { collection: 'locations' },
      ),
    );
    expect(error.details?.map((d) => d.pointer)).toEqual(['/performers', '/trcitemRelation/links/0/linkType']);
  });

  it('when wfstatus is draft, then it is stored as readyforvalidation; approved stays approved [WF-007] [WF-009]', () => {
    expect(prepare({ wfstatus: 'draft' }).wfstatus).toBe('readyforvalidation');
    expect(prepare({ wfstatus: 'approved' }).wfstatus).toBe('approved');
  });

  it('when the calendar is sent, then its type is normalised before storing [ITEM-020] [DEC-ITEM-011]', () => {
    expect(
      prepare({ calendar: { calendarType: 'singledates', singleDates: [{ date: '2027-01-01' }] } }).doc.calendar,
    ).toEqual({ calendarType: 'SINGLEDATES', singleDates: [{ date: '2027-01-01T00:00:00' }] });
  });

  it('when two details share a language, then it is a 400 naming the second', () => {
    const error = caught(() =>
      prepare({ trcItemDetails: [{ lang: 'nl', title: 'A' }, { lang: 'en' }, { lang: 'nl', title: 'B' }] }),
    );
    expect(error.details?.[0]?.pointer).toBe('/trcItemDetails/2/lang');
  });

  it('when a string holds U+0000, then it is a 400 naming where, not a storage error', () => {
    const error = caught(() => prepare({ trcItemDetails: [{ lang: 'nl', title: 'A\u0000B' }] }));
    expect(error.details?.[0]?.pointer).toBe('/trcItemDetails/0/title');
  });

  it('when the body is not an object, then it is a 400', () => {
    expect(caught(() => prepare([])).kind).toBe('invalid');
    expect(caught(() => prepare('x')).kind).toBe('invalid');
  });

  it('when root fields are null, then they are left out of the document; other fields pass through', () => {
    const prepared = prepare({
      calendar: null,
      contactinfo: { mail: [] },
      files: [{ url: 'u' }],
      location: { address: { city: 'Delft' } },
      slug: 'mijn-item',
      externalId: 'feed:1',
    });
    expect(prepared.doc).toEqual({
      contactinfo: { mail: [] },
      files: [{ url: 'u' }],
      location: { address: { city: 'Delft' } },
    });
    expect(prepared).toMatchObject({ slug: 'mijn-item', externalId: 'feed:1' });
  });
});

describe('prepareItemWrite on update', () => {
  const existing = { trcid: 'trc-stored', userorganisation: 'org-a', externalId: 'feed:9' };

  it('when trcid, userorganisation and externalId are absent, then the stored ones are kept [DEC-ITEM-001] [DEC-ITEM-006]', () => {
    expect(prepare({ wfstatus: 'approved' }, { existing })).toMatchObject({
      trcid: 'trc-stored',
      userorganisation: 'org-a',
      externalId: 'feed:9',
      wfstatus: 'approved',
    });
  });

  it('when the same trcid is sent, then it is accepted; a different one is a 400 [DEC-ITEM-006]', () => {
    expect(prepare({ trcid: 'trc-stored' }, { existing }).trcid).toBe('trc-stored');
    const error = caught(() => prepare({ trcid: 'trc-other' }, { existing }));
    expect(error.kind).toBe('invalid');
    expect(error.message).toBe('trcid cannot be changed (stored: "trc-stored", received: "trc-other")');
  });

  it('when an approved item is written with another status, then that status is stored [WF-008]', () => {
    expect(prepare({ wfstatus: 'archived' }, { existing }).wfstatus).toBe('archived');
  });

  it('when no wfstatus is sent, then the save normalises to readyforvalidation [WF-007]', () => {
    expect(prepare({}, { existing }).wfstatus).toBe('readyforvalidation');
  });
});

describe('sortTitle', () => {
  it("when the primary language has a detail, then its title is used, else the first detail's [DEC-LIST-003]", () => {
    const details = [
      { lang: 'en', title: 'Concert' },
      { lang: 'nl', title: 'Optreden' },
    ];
    expect(sortTitle({ trcItemDetails: details, translations: { primaryLanguage: 'nl' } })).toBe('Optreden');
    expect(sortTitle({ trcItemDetails: details, translations: { primaryLanguage: 'de' } })).toBe('Concert');
    expect(sortTitle({ trcItemDetails: details })).toBe('Concert');
    expect(sortTitle({ trcItemDetails: [{ lang: 'nl' }] })).toBeNull();
    expect(sortTitle({})).toBeNull();
  });
});
