import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { createItem } from '../../support/items.ts';

export default defineCheck({
  id: 'items.may-2025-enums',
  title:
    'The values added in May 2025 are accepted and kept: file type webp, media type floorplan, URL service type homepage, promotion externalReference',
  requirements: ['VER-003', 'ITEM-012'],
  tags: ['items', 'versioning', 'write'],
  needs: ['write'],
  writes: 'one event (tagged with the run id)',
  run: async (ctx) => {
    const body = {
      files: [{ hlink: 'https://media.example/plan.webp', filetype: 'webp', mediatype: 'floorplan' }],
      contactinfo: { urls: [{ url: 'https://www.example/', urlServiceType: 'homepage' }] },
      promotions: [{ title: 'Korting', externalReference: `${ctx.runId}-promo` }],
    };
    const { item, path, created } = await createItem(ctx, '/events', body, { label: 'may-2025' });
    const got = {
      filetype: (item.files as { filetype?: string }[] | undefined)?.[0]?.filetype,
      mediatype: (item.files as { mediatype?: string }[] | undefined)?.[0]?.mediatype,
      urlServiceType: (item.contactinfo as { urls?: { urlServiceType?: string }[] } | undefined)?.urls?.[0]
        ?.urlServiceType,
      externalReference: (item.promotions as { externalReference?: string }[] | undefined)?.[0]?.externalReference,
    };
    const want = {
      filetype: 'webp',
      mediatype: 'floorplan',
      urlServiceType: 'homepage',
      externalReference: `${ctx.runId}-promo`,
    };
    for (const key of Object.keys(want) as (keyof typeof want)[]) {
      if (got[key] === want[key]) continue;
      throw new CheckFailure({
        message: `${path}: ${key} ${want[key]} was not kept`,
        received: got[key] ?? '(absent)',
        expected: want[key],
        requirements: key === 'externalReference' ? ['ITEM-012'] : ['VER-003'],
        exchanges: [created.exchange],
      });
    }
    // The DataType values of May 2025 (data, url, email, phone) are checked where the ontology has them: ontology.datatypes.
  },
});
