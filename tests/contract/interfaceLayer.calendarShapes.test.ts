// The interface layer accepts events whose calendar, prices, promotions, performers and SEO fields
// have our former shapes or the operator's model's: the interface names only calendarType,
// singleDates[].date/when[].timestart/timeend, the price entry's description/from/till,
// externalReference and label, so neither shape may fail a vendor on a MUST. The full layer
// holds our decisions and takes only the model's shape.
import { describe, expect, it } from 'vitest';
import { createValidatorFactory, formatErrors, loadSpec, SPEC_FILES } from '../../spec/index.ts';

const full = createValidatorFactory(loadSpec().document)('/components/schemas/Event');
const layer = createValidatorFactory(loadSpec(SPEC_FILES.interface).document)('/components/schemas/Event');

const server = {
  id: '3f1b6d2e-8c4a-4e7b-9f10-2a5c7d9e1b34',
  trcid: 'trc-shapes',
  entitytype: 'EVENEMENT',
  creationdate: '2026-11-20T09:14:03.512Z',
  trcItemDetails: [{ lang: 'nl', title: 'Bach bij kaarslicht' }],
  translations: { primaryLanguage: 'nl', availableLanguages: ['nl'] },
};

/** As this service answered before issue 27. */
const formerShape = {
  ...server,
  calendar: {
    calendarType: 'ALWAYS',
    singleDates: [{ date: '2027-08-18T00:00:00', when: [{ timestart: '20:15', timeend: '24:00' }] }],
    patternDates: [
      { startdate: '2027-08-16', enddate: '2027-08-22', weekdays: ['WE', 'FR'], when: [{ timestart: '20:15' }] },
    ],
  },
  priceElements: [{ description: { value: 'adult', priceDescriptionValue: 'Volwassenen' }, from: 27.5, till: 27.5 }],
  promotions: [
    {
      title: 'Vroegboekkorting',
      externalReference: 'GF27',
      validFrom: '2027-03-01',
      validTo: '2027-06-30',
      conditions: 'Online',
    },
  ],
  performers: [{ label: 'Amsterdams Barokensemble', role: 'ensemble' }],
  seoMetadata: {
    title: 'Bach',
    description: 'Bach bij kaarslicht',
    keywords: ['bach'],
    openGraph: { title: 'Bach', type: 'website', image: 'https://example.com/a.jpg' },
    schemaOrg: { '@context': 'https://schema.org', '@type': 'MusicEvent' },
  },
};

/** As the operator's model (ndtrc_model) writes them, its own values included. */
const modelShape = {
  ...server,
  calendar: {
    calendarType: 'PATTERNDATES',
    singleDates: [
      {
        date: '2027-08-18T00:00:00',
        when: [
          {
            timestart: '20:15',
            timeend: '21:30',
            status: 'soldout',
            valid: true,
            statustranslations: [{ lang: 'nl', text: 'Uitverkocht' }],
            extrainformations: [{ lang: 'en', text: 'Doors 19:45' }],
            urls: [{ url: 'https://tickets.example.com', urlServiceType: 'booking' }],
          },
        ],
      },
    ],
    patternDates: [
      {
        startdate: '2027-08-16T00:00:00',
        enddate: '2027-08-22T00:00:00',
        recurrencyType: 'weekly',
        occurrence: 1,
        recurrence: 1,
        opens: [{ day: 4, whens: [{ timestart: '20:15', timeend: '21:30' }] }],
      },
    ],
    opens: [],
    closeds: [{ date: '2027-08-19T00:00:00', whens: [] }],
    soldouts: [],
    cancelleds: [],
    excludeholidays: false,
    cancelled: false,
    soldout: false,
    onrequest: false,
    alwaysopen: false,
    comment: { label: 'Deuren 19:45', commentTranslations: [{ label: 'Doors 19:45', lang: 'en' }] },
  },
  priceElements: [
    {
      description: {
        value: 'Adults',
        priceDescriptionValue: 'Volwassenen',
        descriptionTranslations: [{ lang: 'en', text: 'Adults' }],
      },
      from: 27.5,
      till: 27.5,
      freeentrance: false,
      comments: [{ text: 'Incl. programma' }],
      extraPriceInformations: [{ lang: 'nl', text: 'Online goedkoper' }],
    },
  ],
  extrapriceinformations: [{ lang: 'nl', text: 'Reserveren aanbevolen' }],
  promotions: [
    {
      product: 'Vroegboekkorting',
      externalReference: 'GF27',
      promotionType: 'discount',
      discount: { free: false, percentage: 20, amount: 5 },
      translations: [{ lang: 'nl', description: '20% korting' }],
      detailsUrls: [{ url: 'https://example.com/actie' }],
      enabled: true,
      restrictedToRegisteredUsers: false,
      validityStrategy: 'earlyBird',
      eventRelativeDuration: 'P30D',
      startDate: '2027-03-01T00:00:00+01:00',
      endDate: '2027-06-30T23:59:59+02:00',
      opens: [{ day: 2, whens: [] }],
    },
  ],
  performers: [{ label: 'Amsterdams Barokensemble', rolelabel: 'ensemble', roleid: 'r-1' }],
  seoMetadata: {
    seoDetails: [
      {
        lang: 'nl',
        metaTitle: 'Bach',
        metaDescription: 'Bach bij kaarslicht',
        ogImageUrl: 'https://example.com/a.jpg',
        ogImageAlt: 'De kerk',
        ogType: 'event',
        twitterCardType: 'summary_large_image',
      },
    ],
    canonical: { canonicalUrl: 'https://example.com/bach' },
    schemaOrgJsonLd: '{"@context":"https://schema.org","@type":"MusicEvent"}',
  },
};

const valid = (validate: typeof layer, value: unknown) => (validate(value) ? '' : formatErrors(validate));

describe('the interface layer and the calendar, price, offer and SEO shapes', () => {
  it("when an event has our former shapes or the operator's model's, then the interface layer accepts both [DEC-ITEM-010] [DEC-ITEM-011] [DEC-ITEM-105] [DEC-ITEM-106]", () => {
    expect(valid(layer, formerShape)).toBe('');
    expect(valid(layer, modelShape)).toBe('');
  });

  it("when the full layer checks them, then it holds our decisions: the model's shape passes and the former one fails", () => {
    expect(valid(full, modelShape)).toBe('');
    expect(full(formerShape)).toBe(false);
  });

  it('when a field the interface names has the wrong kind, then the interface layer still refuses it [ITEM-011] [ITEM-019]', () => {
    const broken = [
      { calendar: { calendarType: 42 } },
      { calendar: { singleDates: [{ date: '18 August', when: [] }] } },
      { calendar: { singleDates: [{ date: '2027-08-18T00:00:00', when: [{ timestart: '8 pm' }] }] } },
      { priceElements: [{ from: '27.50' }] },
      { promotions: [{ externalReference: 27 }] },
      { performers: [{ rolelabel: 'ensemble' }] },
    ];
    for (const fields of broken) expect(layer({ ...modelShape, ...fields }), JSON.stringify(fields)).toBe(false);
  });
});
