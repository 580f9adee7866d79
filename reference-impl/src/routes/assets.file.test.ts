import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeAnimation,
  makeImage,
  makeNoiseJpeg,
  makePdf,
  uploadAsset,
} from '../../test/support/assets/assetFixtures.ts';
import { newTestAccount } from '../../test/support/items/itemsHarness.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { startTestApp, type TestApp } from '../../test/support/testApp.ts';

describeEachEngine('GET /assets/{id}/{filename}', (engine) => {
  let app: TestApp;
  let token: string;
  let otherToken: string;
  let jpeg: { id: string; bytes: Buffer };
  let pdf: { id: string; bytes: Buffer };

  async function upload(bytes: Buffer, filename: string): Promise<{ id: string; bytes: Buffer }> {
    const response = await uploadAsset(app.baseUrl, token, { bytes, filename });
    expect(response.status).toBe(201);
    return { id: ((await response.json()) as { id: string }).id, bytes };
  }

  const get = (id: string, query = '', headers: Record<string, string> = {}, name = 'file') =>
    fetch(`${app.baseUrl}/assets/${id}/${name}${query}`, { headers: { authorization: `Bearer ${token}`, ...headers } });

  async function sizeOf(response: Response): Promise<{ width: number; height: number; format: string }> {
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    return { width: meta.width, height: meta.height, format: meta.format };
  }

  beforeAll(async () => {
    app = await startTestApp(engine.db);
    const account = await newTestAccount(engine.db);
    token = account.full;
    otherToken = (await newTestAccount(engine.db)).full;
    jpeg = await upload(await makeNoiseJpeg(400, 300), 'photo.jpg');
    pdf = await upload(makePdf(), 'doc.pdf');
  });
  afterAll(() => app.close());

  it('when fetched without resize, then the exact bytes with the content type, a strong ETag and a day of private caching, sandboxed and shown inline [ASSET-003, ASSET-005, DEC-ASSET-008]', async () => {
    const response = await get(jpeg.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(response.headers.get('cache-control')).toBe('private, max-age=86400');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(response.headers.get('content-disposition')).toBe(`inline; filename="${jpeg.id}.jpg"`);
    expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(response.headers.get('content-length')).toBe(String(jpeg.bytes.length));
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await response.arrayBuffer()).equals(jpeg.bytes)).toBe(true);
  });

  it("when a PDF holds JavaScript, then it is served as an attachment, sandboxed, never to be run inline under the service's origin [DEC-ASSET-008]", async () => {
    const script = Buffer.from(
      '%PDF-1.4\n1 0 obj << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\n%%EOF\n',
    );
    const active = await upload(script, 'flyer.html');
    const response = await get(active.id, '', {}, 'flyer.html');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${active.id}.pdf"`);
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('private, max-age=86400');
    expect(Buffer.from(await response.arrayBuffer()).equals(script)).toBe(true);
  });

  it("when another account's token asks, then the file is served too; without a token 401; an unknown id 404 [DEC-ASSET-004, DEC-ERR-002]", async () => {
    const other = await fetch(`${app.baseUrl}/assets/${jpeg.id}/x.jpg`, {
      headers: { authorization: `Bearer ${otherToken}` },
    });
    expect(other.status).toBe(200);
    expect((await fetch(`${app.baseUrl}/assets/${jpeg.id}/x.jpg`)).status).toBe(401);
    const unknown = await get('00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
  });

  it('when the id or file name tries to climb directories, then no file outside the store is reached [DEC-ASSET-005]', async () => {
    for (const id of ['..%2F..%2Fpackage.json', '..', 'not-a-uuid']) {
      const response = await get(id);
      expect([400, 404]).toContain(response.status);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    }
    const traversal = await get(jpeg.id, '', {}, '..%2F..%2F..%2Fetc%2Fpasswd');
    expect(traversal.status).toBe(200);
    expect(Buffer.from(await traversal.arrayBuffer()).equals(jpeg.bytes)).toBe(true);
  });

  describe('resizing [ASSET-005, DEC-ASSET-003, DEC-ASSET-008]', () => {
    it('when w, h and mode are given, then the image has the right size and keeps its format', async () => {
      const cases: [string, number, number][] = [
        ['?w=200', 200, 150],
        ['?h=100', 133, 100],
        ['?w=200&h=200', 200, 150],
        ['?w=200&h=200&mode=fit', 200, 150],
        ['?w=200&h=200&mode=cover', 200, 200],
        ['?w=200&h=200&mode=stretch', 200, 200],
        ['?w=100&h=200&mode=stretch', 100, 200],
        ['?w=120&mode=cover', 120, 90],
        ['?h=60&mode=stretch', 80, 60],
      ];
      for (const [query, width, height] of cases) {
        const response = await get(jpeg.id, query);
        expect(response.status, query).toBe(200);
        expect(response.headers.get('content-type')).toBe('image/jpeg');
        expect(await sizeOf(response), query).toEqual({ width, height, format: 'jpeg' });
      }
    });

    it('when the box is larger than the image, then it is never enlarged', async () => {
      const wide = await get(jpeg.id, '?w=4000');
      expect(Buffer.from(await wide.arrayBuffer()).equals(jpeg.bytes)).toBe(true);
      expect(await sizeOf(await get(jpeg.id, '?w=800&h=800&mode=cover'))).toMatchObject({ width: 300, height: 300 });
      expect(await sizeOf(await get(jpeg.id, '?w=800&h=100&mode=stretch'))).toMatchObject({ width: 400, height: 100 });
      expect(await sizeOf(await get(jpeg.id, '?w=800&h=150'))).toMatchObject({ width: 200, height: 150 });
    });

    it('when PNG, WebP and GIF are resized, then each keeps its format', async () => {
      for (const format of ['png', 'webp', 'gif'] as const) {
        const image = await upload(await makeImage(format, 100, 50), `image.${format}`);
        const response = await get(image.id, '?w=40');
        expect(response.headers.get('content-type')).toBe(`image/${format}`);
        expect(await sizeOf(response)).toEqual({ width: 40, height: 20, format });
      }
    });

    it('when an animated GIF or WebP is resized, then every frame is, and it stays animated', async () => {
      for (const format of ['gif', 'webp'] as const) {
        const animation = await upload(await makeAnimation(format, 100, 50, 3), `anim.${format}`);
        for (const [query, width, height] of [
          ['?w=40', 40, 20],
          ['?w=30&h=30&mode=cover', 30, 30],
        ] as const) {
          const response = await get(animation.id, query);
          expect(response.status, `${format} ${query}`).toBe(200);
          const meta = await sharp(Buffer.from(await response.arrayBuffer()), { animated: true }).metadata();
          expect({ format: meta.format, pages: meta.pages, width: meta.width, pageHeight: meta.pageHeight }).toEqual({
            format,
            pages: 3,
            width,
            pageHeight: height,
          });
        }
      }
    });

    it('when w or h is out of 1…4000 or the mode unknown, then 400', async () => {
      for (const query of ['?w=0', '?w=4001', '?h=-5', '?w=abc', '?mode=zoom', '?w=10&w=20']) {
        expect((await get(jpeg.id, query)).status, query).toBe(400);
      }
    });

    it('when the file is not an image, then w, h and mode are ignored', async () => {
      const plain = await get(pdf.id);
      const resized = await get(pdf.id, '?w=10&h=10&mode=cover');
      expect(resized.status).toBe(200);
      expect(resized.headers.get('content-type')).toBe('application/pdf');
      expect(resized.headers.get('etag')).toBe(plain.headers.get('etag'));
      expect(Buffer.from(await resized.arrayBuffer()).equals(pdf.bytes)).toBe(true);
    });
  });

  describe('ETag, 304 and the variant cache [DEC-ASSET-008]', () => {
    it('when If-None-Match carries the ETag of the variant, then 304 without a body; another variant has another ETag', async () => {
      const first = await get(jpeg.id, '?w=150');
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[0-9a-f]{32}-r1-150x113-fit"$/);
      const again = await get(jpeg.id, '?w=150', { 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('cache-control')).toBe('private, max-age=86400');
      expect(await again.text()).toBe('');
      expect((await get(jpeg.id, '?w=150', { 'if-none-match': `"other", W/${etag}` })).status).toBe(304);

      const other = await get(jpeg.id, '?w=151');
      expect(other.headers.get('etag')).not.toBe(etag);
      expect((await get(jpeg.id, '?w=151', { 'if-none-match': etag })).status).toBe(200);
      const original = await get(jpeg.id, '', { 'if-none-match': etag });
      expect(original.status).toBe(200);
      expect((await get(jpeg.id, '', { 'if-none-match': original.headers.get('etag')! })).status).toBe(304);
    });

    it('when a variant is asked twice, then the second comes from the cache with the same bytes; requests that mean the same variant share it', async () => {
      const cold = await get(jpeg.id, '?w=77');
      expect(cold.headers.get('x-asset-cache')).toBe('miss');
      const coldBytes = Buffer.from(await cold.arrayBuffer());
      const warm = await get(jpeg.id, '?w=77');
      expect(warm.headers.get('x-asset-cache')).toBe('hit');
      expect(Buffer.from(await warm.arrayBuffer()).equals(coldBytes)).toBe(true);
      // w=77 alone and w=77 with a tall fit box are one variant (77×58).
      const same = await get(jpeg.id, '?w=77&h=1000&mode=fit');
      expect(same.headers.get('etag')).toBe(cold.headers.get('etag'));
      expect(same.headers.get('x-asset-cache')).toBe('hit');
    });

    it('when one new variant is asked by many at once, then all get it and it is made once', async () => {
      const answers = await Promise.all(Array.from({ length: 8 }, () => get(jpeg.id, '?w=99&h=99&mode=cover')));
      const bodies = await Promise.all(answers.map(async (a) => Buffer.from(await a.arrayBuffer())));
      expect(answers.every((a) => a.status === 200)).toBe(true);
      expect(bodies.every((b) => b.equals(bodies[0]!))).toBe(true);
      expect(answers.filter((a) => a.headers.get('x-asset-cache') === 'miss').length).toBeGreaterThanOrEqual(1);
    });
  });

  describe('resize limits from the configuration (ASSET_RESIZE_MAX_PIXELS, ASSET_CACHE_BYTES)', () => {
    let limited: TestApp;
    beforeAll(async () => {
      limited = await startTestApp(engine.db, { env: { ASSET_RESIZE_MAX_PIXELS: '10000', ASSET_CACHE_BYTES: '1' } });
    });
    afterAll(() => limited.close());

    it('when an image has more pixels than ASSET_RESIZE_MAX_PIXELS, then resizing it is a 422 naming the limit and the original is still served; nothing is cached with a 1-byte cache', async () => {
      // Uploaded through this app: each test app keeps its files in its own memory.
      const uploadHere = async (bytes: Buffer, filename: string) =>
        ((await (await uploadAsset(limited.baseUrl, token, { bytes, filename })).json()) as { id: string }).id;
      const fetchFile = (id: string, query: string) =>
        fetch(`${limited.baseUrl}/assets/${id}/file${query}`, { headers: { authorization: `Bearer ${token}` } });
      const big = await uploadHere(await makeImage('png', 200, 100), 'big.png');
      const refused = await fetchFile(big, '?w=50');
      expect(refused.status).toBe(422);
      expect(((await refused.json()) as { message: string }).message).toBe(
        'the image has 20000 pixels (200×100), more than the resize limit of 10000; request it without w and h',
      );
      expect((await fetchFile(big, '')).status).toBe(200);
      const small = await uploadHere(await makeImage('png', 100, 100), 'small.png');
      const first = await fetchFile(small, '?w=20');
      const second = await fetchFile(small, '?w=20');
      expect([first.status, second.status]).toEqual([200, 200]);
      expect([first.headers.get('x-asset-cache'), second.headers.get('x-asset-cache')]).toEqual(['miss', 'miss']);
    });
  });
});
