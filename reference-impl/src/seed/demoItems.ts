import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import type { Collection } from '../domain/entityRules.ts';
import type { StoredWfStatus } from '../domain/workflow.ts';
import { loadOpenApiDocument, type JsonObject } from '../http/openapiDocument.ts';

// Realistic demo items of every entity type in every status, built from the spec's own examples
// (generated/openapi.json): the approved items of the list examples as they are, and for every
// other status a variant of the entity type's draft example with its own trcid, slug and titles.

export interface DemoItem {
  collection: Collection;
  body: Record<string, unknown>;
}

type Titles = readonly [nl: string, en: string];

const VARIANTS: Readonly<
  Record<
    Collection,
    {
      draft: string;
      list: string;
      titles: Readonly<Record<Exclude<StoredWfStatus, typeof WORKFLOW_STATUS.approved>, Titles>>;
    }
  >
> = {
  events: {
    draft: 'EventGrachtenfestivalDraft',
    list: 'EventList',
    titles: {
      readyforvalidation: ['Grachtenfestival: Prinsengrachtconcert', 'Canal Festival: Prinsengracht Concert'],
      rejected: [
        'Grachtenfestival: Bach bij kaarslicht (dubbel ingevoerd)',
        'Canal Festival: Bach by candlelight (duplicate)',
      ],
      archived: ['Grachtenfestival 2025: Bach bij kaarslicht', 'Canal Festival 2025: Bach by candlelight'],
      deleted: ['Grachtenfestival: proefconcert', 'Canal Festival: trial concert'],
    },
  },
  locations: {
    draft: 'LocationRijksmuseumDraft',
    list: 'LocationList',
    titles: {
      readyforvalidation: ['Rijksmuseumtuinen', 'Rijksmuseum Gardens'],
      rejected: ['Rijksmuseum (oude invoer)', 'Rijksmuseum (old entry)'],
      archived: ['Rijksmuseum Schiphol', 'Rijksmuseum Schiphol'],
      deleted: ['Rijksmuseum testlocatie', 'Rijksmuseum test location'],
    },
  },
  venues: {
    draft: 'VenueJaarbeursDraft',
    list: 'VenueList',
    titles: {
      readyforvalidation: ['Jaarbeurs Supernova', 'Jaarbeurs Supernova'],
      rejected: ['Jaarbeurs Utrecht (onvolledig)', 'Jaarbeurs Utrecht (incomplete)'],
      archived: ['Jaarbeurs Beatrixgebouw', 'Jaarbeurs Beatrix Building'],
      deleted: ['Jaarbeurs testzaal', 'Jaarbeurs test room'],
    },
  },
  eventgroups: {
    draft: 'EventGroupGrachtenfestivalDraft',
    list: 'EventGroupList',
    titles: {
      readyforvalidation: ['Grachtenfestival 2028', 'Canal Festival 2028'],
      rejected: ['Grachtenfestival Winter', 'Canal Festival Winter'],
      archived: ['Grachtenfestival 2025', 'Canal Festival 2025'],
      deleted: ['Grachtenfestival test', 'Canal Festival test'],
    },
  },
  routes: {
    draft: 'RouteVechtDraft',
    list: 'RouteList',
    titles: {
      readyforvalidation: ['Fietsroute langs de Kromme Rijn', 'Cycling route along the Kromme Rijn'],
      rejected: ['Wandelroute langs de Vecht (onvolledig)', 'Walking route along the Vecht (incomplete)'],
      archived: ['Fietsroute langs de Vecht 2024', 'Cycling route along the Vecht 2024'],
      deleted: ['Testroute Vecht', 'Vecht test route'],
    },
  },
};

/** Extra approved items beyond the list examples. */
const EXTRA_APPROVED: ReadonlyArray<{ collection: Collection; example: string }> = [
  { collection: 'eventgroups', example: 'EventGroupLegacyEntitytypeDraft' },
];

function example(name: string): unknown {
  const examples = ((loadOpenApiDocument().components as JsonObject).examples ?? {}) as Record<
    string,
    { value?: unknown }
  >;
  const found = examples[name]?.value;
  if (found === undefined) throw new Error(`demo items: the spec has no example ${name}`);
  return structuredClone(found);
}

function retitled(body: Record<string, unknown>, [nl, en]: Titles): unknown[] {
  const details = Array.isArray(body.trcItemDetails) ? (body.trcItemDetails as Array<Record<string, unknown>>) : [];
  return details.map((detail) => ({ ...detail, title: detail.lang === 'en' ? en : nl }));
}

/** Every demo item, approved ones first. Bodies are TRCItem drafts: read-only fields in them are ignored on write. */
export function demoItems(): DemoItem[] {
  const items: DemoItem[] = [];
  for (const [collection, variant] of Object.entries(VARIANTS) as Array<[Collection, (typeof VARIANTS)[Collection]]>) {
    for (const body of example(variant.list) as Array<Record<string, unknown>>) items.push({ collection, body });
  }
  for (const extra of EXTRA_APPROVED)
    items.push({
      collection: extra.collection,
      body: { ...(example(extra.example) as Record<string, unknown>), wfstatus: WORKFLOW_STATUS.approved },
    });
  for (const [collection, variant] of Object.entries(VARIANTS) as Array<[Collection, (typeof VARIANTS)[Collection]]>) {
    const draft = example(variant.draft) as Record<string, unknown>;
    for (const [wfstatus, titles] of Object.entries(variant.titles)) {
      items.push({
        collection,
        body: {
          ...draft,
          trcid: `${draft.trcid as string}-${wfstatus}`,
          slug: `${draft.slug as string}-${wfstatus}`,
          trcItemDetails: retitled(draft, titles),
          wfstatus,
        },
      });
    }
  }
  return items;
}
