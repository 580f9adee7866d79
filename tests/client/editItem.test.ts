// The typed client's conditional writes against the reference service (DEC-ITEM-031): readItem
// gives the ETag, replaceItem sends it as If-Match, editItem retries a 412 from a fresh read.
// In tests/ because it starts the reference service through its test harness.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { createContentClient, type ContentClient } from '../../client/http/contentClient.ts';
import { ServiceError } from '../../client/http/serviceError.ts';
import { newTestAccount } from '../../reference-impl/test/support/items/itemsHarness.ts';
import { describeEachEngine } from '../../reference-impl/test/support/storage/testDb.ts';
import { startTestApp, type TestApp } from '../../reference-impl/test/support/testApp.ts';

describeEachEngine('typed client: conditional item writes', (ctx) => {
  let app: TestApp;
  let api: ContentClient;
  let id: string;
  beforeAll(async () => {
    app = await startTestApp(ctx.db, { env: { RATE_LIMIT_ENABLED: 'false' } });
    const account = await newTestAccount(ctx.db);
    api = createContentClient({ baseUrl: app.baseUrl, token: account.full });
    const { data } = await api.POST('/events', {
      body: { wfstatus: 'approved', trcItemDetails: [{ lang: 'nl', title: 'Tags', longdescription: 'start' }] },
    });
    id = data!.id!;
  });
  afterAll(async () => {
    await api.close();
    await app.close();
  });

  it('when an item is read, then it comes with its ETag, and replaceItem with that tag writes once: the same tag again is a 412 [DEC-ITEM-031]', async () => {
    const read = (await api.readItem('events', id))!;
    expect(read.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const written = await api.replaceItem('events', id, { ...read.item, slug: 'tags-1' }, { ifMatch: read.etag });
    expect(written.item.slug).toBe('tags-1');
    expect(written.etag).not.toBe(read.etag);
    const stale = await api
      .replaceItem('events', id, { ...read.item, slug: 'tags-2' }, { ifMatch: read.etag })
      .catch((e) => e);
    expect(stale).toBeInstanceOf(ServiceError);
    expect((stale as ServiceError).status).toBe(412);
    expect((await api.readItem('events', id))!.item.slug).toBe('tags-1');
  });

  it('when 20 editors append to one item with editItem at once, then every append survives [DEC-ITEM-031]', async () => {
    const markers = Array.from({ length: 20 }, (_, i) => `e${i}.`);
    await Promise.all(
      markers.map((marker) =>
        api.editItem(
          'events',
          id,
          (item) => {
            const [detail] = item.trcItemDetails!;
            return {
              ...item,
              trcItemDetails: [{ ...detail!, longdescription: `${detail!.longdescription} ${marker}` }],
            };
          },
          { attempts: 100 },
        ),
      ),
    );
    const text = (await api.readItem('events', id))!.item.trcItemDetails![0]!.longdescription!;
    expect(text.split(' ').slice(1).sort()).toEqual([...markers].sort());
  }, 120_000);

  it('when the item is gone, then editItem throws a 404 ServiceError and does not call edit [DEC-ITEM-031]', async () => {
    let called = false;
    const error = await api
      .editItem('events', '00000000-0000-4000-8000-000000000000', (item) => ((called = true), item))
      .catch((e) => e);
    expect((error as ServiceError).status).toBe(404);
    expect(called).toBe(false);
  });
});
