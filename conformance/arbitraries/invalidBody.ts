// An invalid item body for POST /{collection}: malformed JSON, a wrong Content-Type, a field of
// the wrong type, a bad enum value, an unknown field, a limit or format broken, or a rule of our
// decisions broken. Each case names the decision that makes it a 400.
//
// Object bodies get `decorate` applied (the suite puts its run tag in trcid, slug and title), so
// that a target that accepts one anyway writes tagged test data the cleanup finds.

import fc from 'fast-check';
import { ENTITY_TYPE, type EntityType } from '../../generated/constants.ts';

export interface InvalidBody {
  /** The raw request body. */
  text: string;
  contentType: string;
  reason: string;
  decision: string;
}

export type InvalidBodyKind =
  | 'malformedJson'
  | 'contentType'
  | 'wrongType'
  | 'badEnum'
  | 'unknownField'
  | 'nul'
  | 'tooLong'
  | 'duplicateLanguage'
  | 'entitytype'
  | 'foreignField'
  | 'patternOrder'
  | 'notAnObject'
  | 'missingKey'
  | 'badFormat';
export const INVALID_BODY_KINDS: readonly InvalidBodyKind[] = [
  'malformedJson',
  'contentType',
  'wrongType',
  'badEnum',
  'unknownField',
  'nul',
  'tooLong',
  'duplicateLanguage',
  'entitytype',
  'foreignField',
  'patternOrder',
  'notAnObject',
  'missingKey',
  'badFormat',
];

export interface InvalidBodyConstraints {
  /** Entity type of the collection the body goes to (`entitytype` and `foreignField` cases depend on it). */
  entitytype: EntityType;
  kinds?: readonly InvalidBodyKind[];
  /** Applied to every object body before it is serialised (tagging). Default: unchanged. */
  decorate?: (body: Record<string, unknown>) => Record<string, unknown>;
}

const JSON_TYPE = 'application/json';
const word = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: 3, maxLength: 10 });

export function invalidBody(constraints: InvalidBodyConstraints): fc.Arbitrary<InvalidBody> {
  const decorate = constraints.decorate ?? ((b) => b);
  const obj = (body: Record<string, unknown>, reason: string, decision: string): InvalidBody => ({
    text: JSON.stringify(decorate(body)),
    contentType: JSON_TYPE,
    reason,
    decision,
  });
  const other = constraints.entitytype === ENTITY_TYPE.LOCATIE ? ENTITY_TYPE.ROUTE : ENTITY_TYPE.LOCATIE;
  const cases: Record<InvalidBodyKind, fc.Arbitrary<InvalidBody>> = {
    malformedJson: fc
      .constantFrom(
        '{',
        '{"trcid": }',
        '{"trcid": "a",}',
        "{'trcid': 'a'}",
        'not json',
        '{"trcid": "a"} trailing',
        '[1, 2',
      )
      .map((text) => ({ text, contentType: JSON_TYPE, reason: 'the body is not valid JSON', decision: 'DEC-ERR-003' })),
    contentType: fc
      .constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml')
      .map((contentType) => ({
        text: JSON.stringify(decorate({})),
        contentType,
        reason: `Content-Type ${contentType} instead of application/json`,
        decision: 'DEC-ERR-003',
      })),
    wrongType: fc
      .constantFrom<[string, Record<string, unknown>]>(
        ['trcItemDetails is a string', { trcItemDetails: 'title' }],
        ['a title is a number', { trcItemDetails: [{ lang: 'nl', title: 42 }] }],
        ['calendar is an array', { calendar: [] }],
        ['xcoordinate is a number', { location: { xcoordinate: 4.9, ycoordinate: '52.3' } }],
        ['availableLanguages is a string', { translations: { availableLanguages: 'nl' } }],
        ['slug is an object', { slug: { nl: 'x' } }],
        ['trcItemCategories.types is an object', { trcItemCategories: { types: { catid: '1' } } }],
      )
      .map(([reason, body]) => obj(body, reason, 'DEC-ERR-001')),
    badEnum: fc
      .oneof(
        word.map((w) => [`wfstatus ${w} is not a status`, { wfstatus: w }] as const),
        fc.constant([
          'wfstatus published is not a status (there is none named published)',
          { wfstatus: 'published' },
        ] as const),
        word.map((w) => [`calendarType ${w} is not a calendar type`, { calendar: { calendarType: w } }] as const),
        word.map(
          (w) =>
            [
              `linkType ${w} is not a link type`,
              { trcitemRelation: { links: [{ linkType: w, trcid: 'x' }] } },
            ] as const,
        ),
      )
      .map(([reason, body]) => obj({ ...body }, reason, 'DEC-ERR-001')),
    unknownField: word.map((w) => obj({ [`ctf${w}`]: true }, `ctf${w} is not a field of the item`, 'DEC-ITEM-005')),
    nul: fc.constant(
      obj({ trcItemDetails: [{ lang: 'nl', title: 'a\u0000b' }] }, 'a title holds the NUL character', 'DEC-ITEM-028'),
    ),
    tooLong: fc
      .integer({ min: 501, max: 600 })
      .map((n) =>
        obj(
          { trcItemDetails: [{ lang: 'nl', title: 'x'.repeat(n) }] },
          `a title of ${n} characters (at most 500)`,
          'DEC-ITEM-019',
        ),
      ),
    duplicateLanguage: fc.constant(
      obj(
        {
          trcItemDetails: [
            { lang: 'nl', title: 'a' },
            { lang: 'nl', title: 'b' },
          ],
        },
        'two trcItemDetails entries for nl',
        'DEC-ITEM-022',
      ),
    ),
    entitytype: fc.constant(
      obj({ entitytype: other }, `entitytype ${other} on the ${constraints.entitytype} collection`, 'DEC-ITEM-008'),
    ),
    foreignField:
      constraints.entitytype === ENTITY_TYPE.EVENEMENT
        ? fc.constant(obj({ routeInfo: { routeType: 'walking' } }, 'routeInfo on an event', 'DEC-ITEM-015'))
        : fc.constant(
            obj(
              { priceElements: [{ from: 1, till: 2 }] },
              `priceElements on a ${constraints.entitytype}`,
              'DEC-ITEM-015',
            ),
          ),
    patternOrder: fc.constant(
      obj(
        { calendar: { patternDates: [{ startdate: '2027-08-10', enddate: '2027-08-01' }] } },
        'a pattern ends before it starts',
        'DEC-ITEM-024',
      ),
    ),
    missingKey: fc
      .constantFrom<[string, Record<string, unknown>]>(
        ['a trcItemDetails entry without lang', { trcItemDetails: [{ title: 'x' }] }],
        ['a type without catid', { trcItemCategories: { types: [{ isDefault: true }] } }],
        ['a single date without date', { calendar: { singleDates: [{ when: [{ timestart: '10:00' }] }] } }],
        ['a link without trcid', { trcitemRelation: { links: [{ linkType: 'alias' }] } }],
        ['a contact mail without email', { contactinfo: { mail: { descriptioncode: 'info' } } }],
      )
      .map(([reason, body]) => obj(body, reason, 'DEC-ITEM-021')),
    badFormat: fc
      .constantFrom<[string, Record<string, unknown>]>(
        ['an upper-case language code', { trcItemDetails: [{ lang: 'NL', title: 'x' }] }],
        ['a country that is not ISO 3166-1 alpha-2', { location: { address: { country: 'Netherlands' } } }],
        ['a time of 25:00', { calendar: { singleDates: [{ date: '2027-05-01', when: [{ timestart: '25:00' }] }] } }],
        ['a date that is not a date', { calendar: { singleDates: [{ date: '1 May 2027' }] } }],
        ['a longitude with a comma', { location: { xcoordinate: '4,9', ycoordinate: '52.3' } }],
      )
      .map(([reason, body]) => obj(body, reason, 'DEC-ITEM-023')),
    notAnObject: fc.constantFrom('[]', '"item"', '42', 'null').map((text) => ({
      text,
      contentType: JSON_TYPE,
      reason: `the body is ${text}, not an object`,
      decision: 'DEC-ERR-001',
    })),
  };
  return fc.oneof(...(constraints.kinds ?? INVALID_BODY_KINDS).map((k) => cases[k]));
}
