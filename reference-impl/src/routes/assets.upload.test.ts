import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeBombPng, makeExe, makeImage, makePdf, uploadAsset } from '../../test/support/assets/assetFixtures.ts';
import { client, newTestAccount, type TestAccount } from '../../test/support/items/itemsHarness.ts';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { startTestApp, type TestApp } from '../../test/support/testApp.ts';

const MAX_BYTES = 200_000;
const OVERSIZED_CLIENT = fileURLToPath(new URL('../../test/support/assets/oversizedUploadClient.ts', import.meta.url));

/** What Node's fetch, in a process of its own, read on each of `tries` uploads of `bytes` bytes. */
function uploadFromOtherProcess(
  baseUrl: string,
  token: string,
  mode: 'length' | 'chunked',
  bytes: number,
  tries: number,
): Promise<Array<{ status?: number; body?: unknown; error?: string }>> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [OVERSIZED_CLIENT, baseUrl, token, mode, String(bytes), String(tries)],
      { timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as Array<{ status?: number; body?: unknown; error?: string }>);
      },
    );
  });
}

/** Files under `root` (recursively), staging included: what an upload left on disk. */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** An ISO base media box: 32-bit size, four-character type, payload. */
function isoBox(type: string, payload: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt32BE(8 + payload.length);
  return Buffer.concat([size, Buffer.from(type, 'latin1'), payload]);
}

/**
 * The head of an MP4 file: an `ftyp` box (major brand `isom`, minor version 0x200, compatible
 * brands isom, iso2, mp41), then a `free` box and an `mdat` box of placeholder media bytes.
 * `majorBrand` swaps the brand, for ISO files that are not MP4 (`qt  ` is QuickTime).
 */
function makeMp4(majorBrand = 'isom'): Buffer {
  const ftyp = isoBox(
    'ftyp',
    Buffer.concat([
      Buffer.from(majorBrand, 'latin1'),
      Buffer.from([0, 0, 2, 0]),
      Buffer.from('isomiso2mp41', 'latin1'),
    ]),
  );
  return Buffer.concat([ftyp, isoBox('free', Buffer.alloc(0)), isoBox('mdat', randomBytes(2000))]);
}

describeEachEngine('POST /assets', (engine) => {
  let app: TestApp;
  let dataDir: string;
  let account: TestAccount;
  const recordItemChange = vi.fn(async () => {});

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'assets-test-'));
    app = await startTestApp(engine.db, {
      env: { DATA_DIR: dataDir, ASSET_MAX_BYTES: String(MAX_BYTES) },
      deps: { recordItemChange },
    });
    account = await newTestAccount(engine.db);
  });
  afterAll(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const hits = async () => (await client(app.baseUrl, account.full).get('/assets?size=1')).body.hits as number;

  it('when a JPEG, PNG and PDF are uploaded, then 201 with the asset, its Location, sniffed type and image size [ASSET-006, ASSET-001, ASSET-003, DEC-ASSET-001, DEC-ASSET-002]', async () => {
    const cases = [
      {
        bytes: await makeImage('jpeg', 64, 48),
        filename: 'grachten.jpg',
        mimetype: 'image/jpeg',
        width: 64,
        height: 48,
      },
      { bytes: await makeImage('png', 30, 20), filename: 'logo.png', mimetype: 'image/png', width: 30, height: 20 },
      {
        bytes: makePdf(),
        filename: 'plattegrond.pdf',
        mimetype: 'application/pdf',
        width: undefined,
        height: undefined,
      },
    ];
    for (const c of cases) {
      const response = await uploadAsset(app.baseUrl, account.full, {
        bytes: c.bytes,
        filename: c.filename,
        contentType: 'application/octet-stream',
        title: `Titel ${c.filename}`,
        description: 'Beschrijving',
      });
      const asset = (await response.json()) as Record<string, unknown>;
      expect(response.status, JSON.stringify(asset)).toBe(201);
      expect(asset).toMatchObject({
        filename: c.filename,
        mimetype: c.mimetype,
        size: c.bytes.length,
        title: `Titel ${c.filename}`,
        description: 'Beschrijving',
      });
      expect(asset.width).toBe(c.width);
      expect(asset.height).toBe(c.height);
      expect(asset.modified).toBeUndefined();
      expect(asset.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(asset.url).toBe(`${app.config.publicBaseUrl}/assets/${String(asset.id)}/${c.filename}`);
      expect(response.headers.get('location')).toBe(asset.url);

      const file = await fetch(`${app.baseUrl}/assets/${String(asset.id)}/${c.filename}`, {
        headers: { authorization: `Bearer ${account.full}` },
      });
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe(c.mimetype);
      expect(Buffer.from(await file.arrayBuffer()).equals(c.bytes)).toBe(true);
    }
  });

  it('when an upload is stored, then the file is on disk under DATA_DIR/assets, named by id only', async () => {
    const response = await uploadAsset(app.baseUrl, account.full, {
      bytes: await makeImage('png', 8, 8),
      filename: '../../etc/passwd.png',
    });
    expect(response.status).toBe(201);
    const asset = (await response.json()) as { id: string; filename: string };
    expect(asset.filename).toBe('passwd.png');
    expect(await filesUnder(join(dataDir, 'assets'))).toContain(
      join(dataDir, 'assets', asset.id.slice(0, 2), asset.id),
    );
  });

  it('when the client claims image/jpeg for a text file or an executable named .jpg, then 415 and nothing is stored [ERR-004, DEC-ASSET-001]', async () => {
    const before = await hits();
    const filesBefore = await filesUnder(dataDir);
    const text = await uploadAsset(app.baseUrl, account.full, {
      bytes: Buffer.from('just some text, not a photo\n'.repeat(50)),
      filename: 'photo.jpg',
      contentType: 'image/jpeg',
    });
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ status: 415, error: 'Unsupported Media Type' });
    const exe = await uploadAsset(app.baseUrl, account.full, {
      bytes: makeExe(),
      filename: 'photo.jpg',
      contentType: 'image/jpeg',
    });
    expect(exe.status).toBe(415);
    expect(((await exe.json()) as { message: string }).message).toMatch(
      /^file type application\/x-msdownload is not accepted; accepted: image\/jpeg, image\/png/,
    );
    const empty = await uploadAsset(app.baseUrl, account.full, {
      bytes: Buffer.alloc(0),
      filename: 'empty.png',
      contentType: 'image/png',
    });
    expect(empty.status).toBe(415);
    expect(await hits()).toBe(before);
    expect(await filesUnder(dataDir)).toEqual(filesBefore);
  });

  it('when an MP4 (an ftyp box with brand isom) is uploaded, then 201 with mimetype video/mp4, no image size, and the same bytes served back as video/mp4 [ASSET-006, DEC-ASSET-001]', async () => {
    const mp4 = makeMp4();
    expect(mp4.subarray(4, 12).toString('latin1')).toBe('ftypisom');
    const response = await uploadAsset(app.baseUrl, account.full, {
      bytes: mp4,
      filename: 'impressie-grachtenfestival.mp4',
      contentType: 'application/octet-stream',
    });
    const asset = (await response.json()) as Record<string, unknown>;
    expect(response.status, JSON.stringify(asset)).toBe(201);
    expect(asset).toMatchObject({
      filename: 'impressie-grachtenfestival.mp4',
      mimetype: 'video/mp4',
      size: mp4.length,
    });
    expect(asset.width).toBeUndefined();
    expect(asset.height).toBeUndefined();
    const file = await fetch(`${app.baseUrl}/assets/${String(asset.id)}/impressie-grachtenfestival.mp4`, {
      headers: { authorization: `Bearer ${account.full}` },
    });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await file.arrayBuffer()).equals(mp4)).toBe(true);
  });

  it('when a file named .mp4 and claimed as video/mp4 is not MP4 (text, or a QuickTime ftyp), then 415 naming the sniffed type and nothing is stored [ERR-004, DEC-ASSET-001]', async () => {
    const before = await hits();
    const filesBefore = await filesUnder(dataDir);
    const text = await uploadAsset(app.baseUrl, account.full, {
      bytes: Buffer.from('not a video, just words\n'.repeat(100)),
      filename: 'clip.mp4',
      contentType: 'video/mp4',
    });
    expect(text.status).toBe(415);
    expect(await text.json()).toEqual({
      status: 415,
      error: 'Unsupported Media Type',
      message:
        'file type unknown is not accepted; accepted: image/jpeg, image/png, image/webp, image/gif, application/pdf, video/mp4',
    });
    const quicktime = await uploadAsset(app.baseUrl, account.full, {
      bytes: makeMp4('qt  '),
      filename: 'clip.mp4',
      contentType: 'video/mp4',
    });
    expect(quicktime.status).toBe(415);
    expect(((await quicktime.json()) as { message: string }).message).toMatch(
      /^file type video\/quicktime is not accepted; /,
    );
    expect(await hits()).toBe(before);
    expect(await filesUnder(dataDir)).toEqual(filesBefore);
  });

  it('when the bytes start like a JPEG but are not one, then 415 and nothing is stored', async () => {
    const before = await hits();
    const filesBefore = await filesUnder(dataDir);
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(5000)]);
    const response = await uploadAsset(app.baseUrl, account.full, { bytes: fake, filename: 'broken.jpg' });
    expect(response.status).toBe(415);
    expect(((await response.json()) as { message: string }).message).toBe(
      'file starts like image/jpeg but is not a readable image',
    );
    expect(await hits()).toBe(before);
    expect(await filesUnder(dataDir)).toEqual(filesBefore);
  });

  it('when the upload is one byte over the limit, then 413 and nothing is stored: no row, no file, no staged part [ERR-003]', async () => {
    const before = await hits();
    const filesBefore = await filesUnder(dataDir);
    const response = await uploadAsset(app.baseUrl, account.full, {
      bytes: makePdf(MAX_BYTES + 1),
      filename: 'big.pdf',
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      status: 413,
      error: 'Payload Too Large',
      message: `upload exceeds the limit of ${MAX_BYTES} bytes`,
    });
    expect(await hits()).toBe(before);
    expect(await filesUnder(dataDir)).toEqual(filesBefore);
  });

  it('when the upload is far over the limit, then 413 from its Content-Length before the body is read [ERR-003]', async () => {
    const before = await hits();
    const filesBefore = await filesUnder(dataDir);
    const response = await uploadAsset(app.baseUrl, account.full, {
      bytes: makePdf(MAX_BYTES * 5),
      filename: 'huge.pdf',
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { message: string }).message).toContain('Content-Length');
    expect(await hits()).toBe(before);
    expect(await filesUnder(dataDir)).toEqual(filesBefore);
  });

  describe('a client still sending when the 413 is sent', () => {
    // The 413 is sent as soon as the upload is known to be too large; the service then reads and
    // discards the rest of the body (up to a cap) instead of closing on a client that is still
    // writing, which would reset the connection before the client read the answer (EPIPE).
    const cases = [
      { mode: 'length', bytes: 3_000_000, what: 'with a Content-Length far over the limit, read to its end' },
      { mode: 'length', bytes: 30_000_000, what: 'with a Content-Length beyond the discard cap' },
      { mode: 'chunked', bytes: 3_000_000, what: 'streamed without a length, over the limit mid-way' },
      { mode: 'chunked', bytes: 30_000_000, what: 'streamed without a length, beyond the discard cap' },
    ] as const;
    for (const c of cases) {
      it(`when Node's fetch sends an upload ${c.what} ten times, then it reads the 413 each time and nothing is stored [ERR-003, DEC-ASSET-010]`, async () => {
        const before = await hits();
        const filesBefore = await filesUnder(dataDir);
        const outcomes = await uploadFromOtherProcess(app.baseUrl, account.full, c.mode, c.bytes, 10);
        expect(outcomes).toEqual(
          Array.from({ length: 10 }, () => ({
            status: 413,
            body: expect.objectContaining({ status: 413, error: 'Payload Too Large' }),
          })),
        );
        expect(await hits()).toBe(before);
        expect(await filesUnder(dataDir)).toEqual(filesBefore);
      }, 60_000);
    }
  });

  it('when the upload is exactly at the limit, then it is accepted', async () => {
    const response = await uploadAsset(app.baseUrl, account.full, { bytes: makePdf(MAX_BYTES), filename: 'exact.pdf' });
    expect(response.status).toBe(201);
    expect(((await response.json()) as { size: number }).size).toBe(MAX_BYTES);
  });

  it('when an image claims 10^10 pixels in a few dozen bytes, then it is stored with its claimed size, and resizing it is a 422, not a 500', async () => {
    const bomb = makeBombPng();
    const response = await uploadAsset(app.baseUrl, account.full, { bytes: bomb, filename: 'bomb.png' });
    expect(response.status).toBe(201);
    const asset = (await response.json()) as { id: string; width: number; height: number };
    expect([asset.width, asset.height]).toEqual([100_000, 100_000]);
    const url = `${app.baseUrl}/assets/${asset.id}/bomb.png`;
    const resized = await fetch(`${url}?w=100`, { headers: { authorization: `Bearer ${account.full}` } });
    expect(resized.status).toBe(422);
    expect(((await resized.json()) as { message: string }).message).toMatch(/more than the resize limit/);
    const original = await fetch(url, { headers: { authorization: `Bearer ${account.full}` } });
    expect(original.status).toBe(200);
    expect(Buffer.from(await original.arrayBuffer()).equals(bomb)).toBe(true);
  });

  describe('the multipart rules', () => {
    it('when the body is not multipart/form-data, then 415 [DEC-ERR-003]', async () => {
      const response = await fetch(`${app.baseUrl}/assets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.full}`, 'content-type': 'image/png' },
        body: await makeImage('png', 4, 4),
      });
      expect(response.status).toBe(415);
      expect(((await response.json()) as { message: string }).message).toMatch(/multipart\/form-data/);
    });

    it('when there is no file part, then 400', async () => {
      const form = new FormData();
      form.append('title', 'no file');
      const response = await fetch(`${app.baseUrl}/assets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.full}` },
        body: form,
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toBe('multipart body has no file part');
    });

    it('when a part is unknown or the title is too long, then 400 and nothing is stored', async () => {
      const before = await hits();
      const png = await makeImage('png', 4, 4);
      const unknown = await uploadAsset(app.baseUrl, account.full, { bytes: png, extra: { owner: 'someone else' } });
      expect(unknown.status).toBe(400);
      const long = await uploadAsset(app.baseUrl, account.full, { bytes: png, title: 'x'.repeat(501) });
      expect(long.status).toBe(400);
      expect(((await long.json()) as { message: string }).message).toBe('title must be at most 500 characters');
      expect(await hits()).toBe(before);
    });

    it.each([
      ['title', '/title', 'title is not valid UTF-8'],
      ['description', '/description', 'description is not valid UTF-8'],
      ['file name', '/file', 'the file name is not valid UTF-8'],
    ])(
      'when the %s holds bytes that are not UTF-8 (a\\xffb), then 400 naming it and nothing is stored [DEC-ASSET-010]',
      async (part, pointer, message) => {
        const before = await hits();
        const png = await makeImage('png', 4, 4);
        const boundary = 'utf8-check';
        const text = (name: string, value: Buffer) =>
          Buffer.concat([
            Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`),
            value,
            Buffer.from('\r\n'),
          ]);
        const bad = Buffer.from([0x61, 0xff, 0x62]);
        const filename = part === 'file name' ? Buffer.concat([bad, Buffer.from('.png')]) : Buffer.from('ok.png');
        const body = Buffer.concat([
          ...(part === 'title' ? [text('title', bad)] : []),
          ...(part === 'description' ? [text('description', bad)] : []),
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="`),
          filename,
          Buffer.from('"\r\nContent-Type: image/png\r\n\r\n'),
          png,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]);
        const response = await fetch(`${app.baseUrl}/assets`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${account.full}`,
            'content-type': `multipart/form-data; boundary=${boundary}`,
          },
          body,
        });
        const answer = (await response.json()) as { message: string; details?: Array<{ pointer: string }> };
        expect(response.status, JSON.stringify(answer)).toBe(400);
        expect(answer.message).toBe(message);
        expect(answer.details?.[0]?.pointer).toBe(pointer);
        expect(await hits()).toBe(before);
      },
    );

    it('when there is no bearer token, then 401 before the body matters', async () => {
      const response = await uploadAsset(app.baseUrl, 'not-a-token', { bytes: await makeImage('png', 4, 4) });
      expect(response.status).toBe(401);
    });
  });

  it('when assets are uploaded and updated, then no webhook event is ever recorded [ASSET-015]', async () => {
    const response = await uploadAsset(app.baseUrl, account.full, {
      bytes: await makeImage('gif', 10, 10),
      filename: 'a.gif',
    });
    expect(response.status).toBe(201);
    const asset = (await response.json()) as { id: string; width: number };
    expect(asset.width).toBe(10);
    expect((await client(app.baseUrl, account.full).put(`/assets/${asset.id}`, { title: 'renamed' })).status).toBe(200);
    expect(recordItemChange).not.toHaveBeenCalled();
  });

  it('when a WebP is uploaded, then its type and size are sniffed too', async () => {
    const response = await uploadAsset(app.baseUrl, account.full, {
      bytes: await makeImage('webp', 40, 30),
      filename: 'x.bin',
      contentType: 'text/plain',
    });
    expect(response.status).toBe(201);
    const asset = (await response.json()) as { mimetype: string; width: number; height: number };
    expect(asset).toMatchObject({ mimetype: 'image/webp', width: 40, height: 30 });
    expect((await sharp(await makeImage('webp', 40, 30)).metadata()).format).toBe('webp');
  });
});
