// Compile-time proof, checked by `tsc` in `npm run lint`, that generated/types.ts (openapi-typescript
// with --read-write-markers) works with openapi-fetch 0.17: request bodies refuse readOnly fields,
// responses still carry them. Nothing here runs; a type error fails the lint.
import createClient from 'openapi-fetch';
import type { Event, paths, Readable } from '../generated/types.ts';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010' });

export async function readWriteMarkersWorkWithOpenapiFetch(): Promise<unknown[]> {
  const created = await client.POST('/events', {
    body: { entitytype: 'EVENEMENT', trcItemDetails: [{ lang: 'nl', title: 'Grachtenfestival' }] },
  });
  // @ts-expect-error `id` is readOnly: openapi-fetch refuses it in a request body
  await client.POST('/events', { body: { id: '3f1b6d2e-8c4a-4e7b-9f10-2a5c7d9e1b34' } });
  const createdId: string | undefined = created.data?.id; // responses keep readOnly fields

  const page = await client.GET('/events', {
    params: {
      query: { size: 2000, sortField: 'lastupdated', sortOrder: 'ASC', wfstatus: ['approved', 'archived', 'deleted'] },
    },
  });
  const first: Readable<Event> | undefined = page.data?.[0];
  const limit: string | undefined = page.response.headers.get('X-RateLimit-Limit') ?? undefined;
  return [createdId, first?.trcid, limit];
}
