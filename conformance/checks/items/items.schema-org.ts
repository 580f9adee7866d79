import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { createItem, readItem } from '../../support/items.ts';

type SchemaOrg = { '@type'?: string; startDate?: string; endDate?: string; offers?: { price?: unknown } };

/** A marker only a client writes: no server derives it from the item. */
const SENT = 'sent-by-the-client-as-schema-org';

export default defineCheck({
  id: 'items.schema-org',
  title:
    "The schema.org JSON-LD part of seoMetadata is read-only: what a client writes there does not come back. As decided, seoMetadata.schemaOrgJsonLd is the JSON text derived from the item on every read: a schema.org type, dates from the calendar's first day (an end at 00:00 is midnight at the end of the day), the first price as the Offer",
  requirements: ['ITEM-010', 'DEC-ITEM-030'],
  tags: ['items', 'decision'],
  needs: ['write'],
  writes: 'one event with a calendar and a price (tagged with the run id)',
  run: async (ctx) => {
    // The interface names no field of seoMetadata: the forged part goes under the model's name
    // and under the one this service used before, so either kind of server has it to ignore.
    const forged = { '@context': 'https://schema.org', '@type': 'Thing', name: SENT };
    const event = await createItem(
      ctx,
      '/events',
      {
        calendar: { singleDates: [{ date: '2027-08-14', when: [{ timestart: '20:00', timeend: '00:00' }] }] },
        priceElements: [{ from: 12.5, till: 12.5 }],
        seoMetadata: { schemaOrgJsonLd: JSON.stringify(forged), schemaOrg: forged },
      },
      { label: 'schema-org', requirements: ['ITEM-010'] },
    );
    const { item, res } = await readItem(ctx, event.path, event.token);
    const seo = item?.seoMetadata as { schemaOrgJsonLd?: unknown } | undefined;
    const fail = (message: string, received: unknown, expected: unknown, requirements: string[]) => {
      throw new CheckFailure({
        message: `${event.path}: ${message}`,
        received,
        expected,
        pointer: '/seoMetadata',
        requirements,
        exchanges: [res.exchange],
      });
    };
    if (JSON.stringify(seo ?? null).includes(SENT))
      fail('the schema.org part sent on write came back (it is read-only)', seo, 'derived by the server', ['ITEM-010']);
    ctx.verified(['ITEM-010']);
    res.assertConforms(['ITEM-010']);
    let s: SchemaOrg | undefined;
    try {
      s = typeof seo?.schemaOrgJsonLd === 'string' ? (JSON.parse(seo.schemaOrgJsonLd) as SchemaOrg) : undefined;
    } catch {
      s = undefined;
    }
    if (!s || typeof s['@type'] !== 'string')
      fail('no schema.org type in seoMetadata.schemaOrgJsonLd', seo?.schemaOrgJsonLd, 'a JSON text with @type', [
        'DEC-ITEM-030',
      ]);
    if (!String(s!.startDate).startsWith('2027-08-14T20:00'))
      fail("startDate is not the first day's start", s!.startDate, '2027-08-14T20:00:00+02:00', ['DEC-ITEM-030']);
    if (s!.endDate !== undefined && Date.parse(String(s!.endDate)) <= Date.parse(String(s!.startDate)))
      fail(
        'endDate is not after startDate (an end at 00:00 is midnight at the end of the day)',
        s!.endDate,
        '2027-08-15T00:00:00+02:00',
        ['DEC-ITEM-030'],
      );
    if (s!.offers === undefined || Number(s!.offers.price) !== 12.5)
      fail('the first price element is not the Offer', s!.offers, { price: '12.50' }, ['DEC-ITEM-030']);
  },
});
