import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../engine/runtime/context.ts';
import { amsterdamWallTime, blankPng, imageInfo, multipart, noisyPng, png, postAssetRaw } from './assets.ts';

describe('multipart', () => {
  it('when parts are given, then the body has each part with its disposition and the closing boundary', () => {
    const { body, contentType } = multipart([
      { name: 'file', data: Buffer.from('abc'), filename: 'a"b.png', contentType: 'image/png' },
      { name: 'title', data: 'T' },
    ]);
    const boundary = /boundary=(.+)$/.exec(contentType)![1]!;
    expect(body.toString()).toBe(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="ab.png"\r\nContent-Type: image/png\r\n\r\nabc\r\n--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nT\r\n--${boundary}--\r\n`,
    );
  });
});

describe('test images', () => {
  it('when made, then they are PNGs of that size, and noisy ones grow with their area', async () => {
    expect(await imageInfo(await png(4, 3))).toEqual({ width: 4, height: 3, format: 'png' });
    const sizes = await Promise.all([2, 6, 12].map(async (n) => (await noisyPng(n, n)).length));
    expect(sizes[0]!).toBeLessThan(sizes[1]!);
    expect(sizes[1]!).toBeLessThan(sizes[2]!);
    expect(await imageInfo(Buffer.from('not an image'))).toBeUndefined();
  });

  it('when a blank PNG of 100 megapixels is built, then it is small, quick and a valid PNG of that size', async () => {
    const started = Date.now();
    const bytes = blankPng(10_001, 10_001);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(bytes.length).toBeLessThan(100_000);
    expect(await imageInfo(bytes)).toEqual({ width: 10_001, height: 10_001, format: 'png' });
    expect(await imageInfo(blankPng(9, 3))).toEqual({ width: 9, height: 3, format: 'png' });
  });
});

describe('amsterdamWallTime', () => {
  it('when the instant is in winter or summer, then the wall time is UTC+1 or UTC+2 without offset', () => {
    expect(amsterdamWallTime('2026-11-22T04:42:14.488Z')).toBe('2026-11-22T05:42:14.488');
    expect(amsterdamWallTime('2026-07-01T22:30:00.005Z')).toBe('2026-07-02T00:30:00.005');
  });
});

describe('postAssetRaw', () => {
  it('when the target answers 413 before the body is sent and closes the connection, then the answer is still read', async () => {
    const server = createServer((req, res) => {
      res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
      res.end(JSON.stringify({ status: 413, error: 'Payload Too Large', message: 'too large' }), () =>
        req.socket.destroy(),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    const ctx = {
      http: { url: (p: string) => `${base}${p}` },
      tokens: { full: 'full-token' },
    } as unknown as CheckContext;
    try {
      const answer = await postAssetRaw(ctx, Buffer.alloc(8 * 1024 * 1024), {
        filename: 'big.png',
        contentType: 'image/png',
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.text)).toMatchObject({ status: 413 });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
