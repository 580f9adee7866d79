import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { createItem, readItem } from '../../support/items.ts';

type SchemaOrg = { '@type'?: string; startDate?: string; endDate?: string; offers?: { price?: unknown } };

export default defineCheck({
  id: 'items.schema-org',
  title:
    "seoMetadata.schemaOrg is derived from the item on every read: a schema.org type, dates from the calendar's first day (an end at 24:00 is midnight of the next day), the first price as the Offer; a schemaOrg sent on write is ignored",
  requirements: ['ITEM-010', 'DEC-ITEM-030'],
  tags: ['items', 'decision'],
  needs: ['write'],
  writes: 'one event with a calendar and a price (tagged with the run id)',
  run: async (ctx) => {
    const event = await createItem(
      ctx,
      '/events',
      {
        calendar: { singleDates: [{ date: '2027-08-14', when: [{ timestart: '20:00', timeend: '24:00' }] }] },
        priceElements: [{ from: 12.5, till: 12.5 }],
        seoMetadata: { title: 'SEO', schemaOrg: { '@type': 'Bogus', name: 'sent by the client' } },
      },
      { label: 'schema-org', requirements: ['ITEM-010'] },
    );
    const { item, res } = await readItem(ctx, event.path, event.token);
    const seo = item?.seoMetadata as { title?: string; schemaOrg?: SchemaOrg } | undefined;
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
    if (seo?.title !== 'SEO') fail('seoMetadata.title was not kept', seo?.title, 'SEO', ['ITEM-010']);
    if (seo?.schemaOrg?.['@type'] === 'Bogus')
      fail('the schemaOrg part sent on write came back (it is read-only)', seo.schemaOrg, 'derived by the server', [
        'ITEM-010',
      ]);
    ctx.verified(['ITEM-010']);
    res.assertConforms(['ITEM-010']);
    const s = seo?.schemaOrg;
    if (!s || typeof s['@type'] !== 'string') fail('no schema.org type', s, 'schemaOrg with @type', ['DEC-ITEM-030']);
    if (!String(s!.startDate).startsWith('2027-08-14T20:00'))
      fail("startDate is not the first day's start", s!.startDate, '2027-08-14T20:00:00+02:00', ['DEC-ITEM-030']);
    if (s!.endDate !== undefined && Date.parse(String(s!.endDate)) <= Date.parse(String(s!.startDate)))
      fail(
        'endDate is not after startDate (24:00 is midnight at the end of the day)',
        s!.endDate,
        '2027-08-15T00:00:00+02:00',
        ['DEC-ITEM-030'],
      );
    if (s!.offers === undefined || Number(s!.offers.price) !== 12.5)
      fail('the first price element is not the Offer', s!.offers, { price: '12.50' }, ['DEC-ITEM-030']);
  },
});
