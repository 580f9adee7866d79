// Assets for the checks: tiny images made in memory and uploaded as multipart/form-data
// (DEC-ASSET-001: one `file` part, optional `title` and `description`). The interface has no
// asset delete, so uploads stay on the target: keep them few and small (a few hundred bytes),
// named with the run id.

import { request as httpRequest } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import type { HttpResponse, TokenChoice } from '../http/httpClient.ts';
import { CheckFailure } from '../model/failure.ts';
import type { CheckContext } from '../engine/runtime/context.ts';
import { writerToken } from './organisations.ts';

export interface Asset {
  id: string;
  filename?: string;
  mimetype?: string;
  size?: number;
  width?: number;
  height?: number;
  url?: string;
  created?: string;
  modified?: string;
  title?: string;
  description?: string;
  [member: string]: unknown;
}

export interface AssetPage {
  size: number;
  page: number;
  hits: number;
  results: Asset[];
}

/** A PNG of one colour; the colour makes files of equal dimensions differ in content. */
export async function png(
  width: number,
  height: number,
  colour: { r: number; g: number; b: number } = { r: 200, g: 30, b: 60 },
): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

/** A PNG of random pixels: its byte size grows with its area (solid colours compress to nearly the same size). */
export async function noisyPng(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/**
 * A blank 1-bit greyscale PNG of any size, built by hand in milliseconds (sharp takes seconds for
 * 100 megapixels): a few kilobytes on the wire, `width × height` pixels when decoded.
 */
export function blankPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(1, 8); // bit depth 1
  ihdr.writeUInt8(0, 9); // greyscale
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height); // filter byte 0 + zero bits per row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export async function jpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 200 } } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** Width, height and format of image bytes, or undefined when they are not an image. */
export async function imageInfo(bytes: Buffer): Promise<{ width: number; height: number; format: string } | undefined> {
  try {
    const meta = await sharp(bytes).metadata();
    return meta.width && meta.height && meta.format
      ? { width: meta.width, height: meta.height, format: meta.format }
      : undefined;
  } catch {
    return undefined;
  }
}

export interface Part {
  name: string;
  data: Buffer | string;
  filename?: string;
  contentType?: string;
}

/** A multipart/form-data body. */
export function multipart(parts: readonly Part[]): { body: Buffer; contentType: string } {
  const boundary = `----content-conformance-${Math.random().toString(36).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename.replace(/"/g, '')}"`}`;
    const head = [
      `--${boundary}`,
      `Content-Disposition: ${disposition}`,
      ...(part.contentType ? [`Content-Type: ${part.contentType}`] : []),
      '',
      '',
    ].join('\r\n');
    chunks.push(
      Buffer.from(head),
      Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface UploadOptions {
  filename: string;
  contentType?: string;
  title?: string;
  description?: string;
  token?: TokenChoice;
  timeoutMs?: number;
}

/** POST /assets; the answer is returned as is (validation deferred), for the check to judge. */
export async function postAsset(ctx: CheckContext, bytes: Buffer, options: UploadOptions): Promise<HttpResponse> {
  const parts: Part[] = [
    {
      name: 'file',
      data: bytes,
      filename: options.filename,
      contentType: options.contentType ?? 'application/octet-stream',
    },
  ];
  if (options.title !== undefined) parts.push({ name: 'title', data: options.title });
  if (options.description !== undefined) parts.push({ name: 'description', data: options.description });
  const { body, contentType } = multipart(parts);
  return ctx.http.post('/assets', {
    body,
    headers: { 'content-type': contentType },
    token: options.token ?? writerToken(ctx),
    validate: 'defer',
    timeoutMs: options.timeoutMs,
  });
}

/** Uploads and fails unless the target answers 2xx with an asset id (ASSET-006). */
export async function uploadAsset(
  ctx: CheckContext,
  bytes: Buffer,
  options: UploadOptions & { requirements?: readonly string[] },
): Promise<{ res: HttpResponse; asset: Asset }> {
  const res = await postAsset(ctx, bytes, options);
  if (res.status < 200 || res.status >= 300) {
    throw new CheckFailure({
      message: `POST /assets (${bytes.length} bytes, ${options.filename}) answered ${res.status}`,
      received: res.status,
      expected: '201 with the asset',
      pointer: 'status',
      requirements: options.requirements,
      exchanges: [res.exchange],
    });
  }
  const asset = res.body as Asset | undefined;
  if (typeof asset?.id !== 'string') {
    throw new CheckFailure({
      message: 'POST /assets answered no asset id',
      received: res.text.slice(0, 300),
      expected: 'the asset with its id',
      pointer: '/id',
      requirements: options.requirements,
      exchanges: [res.exchange],
    });
  }
  res.assertConforms(options.requirements);
  return { res, asset };
}

/** GET /assets with a query; fails unless 200 with a page object. */
export async function listAssets(
  ctx: CheckContext,
  query: Record<string, string | number | undefined>,
  options: { token?: TokenChoice; requirements?: readonly string[] } = {},
): Promise<{ res: HttpResponse; page: AssetPage }> {
  const res = await ctx.http.get('/assets', { query, token: options.token ?? writerToken(ctx), validate: 'defer' });
  const page = res.body as Partial<AssetPage> | undefined;
  if (res.status !== 200 || !page || !Array.isArray(page.results)) {
    throw new CheckFailure({
      message: `GET /assets?${new URLSearchParams(query as Record<string, string>)} answered ${res.status} ${res.status === 200 ? 'without a results array' : ''}`,
      received: res.status === 200 ? res.text.slice(0, 200) : res.status,
      expected: '200 with {size, page, hits, results[]}',
      requirements: options.requirements,
      exchanges: [res.exchange],
    });
  }
  res.assertConforms(options.requirements);
  return { res, page: page as AssetPage };
}

/** The asset's file path relative to the base URL (`/assets/<id>/<filename>`), from its url or its id. */
export function filePath(asset: Asset, filename = asset.filename ?? 'file'): string {
  return `/assets/${encodeURIComponent(asset.id)}/${encodeURIComponent(filename)}`;
}

/** The Europe/Amsterdam wall-clock time of an instant, without offset: `2026-11-22T05:42:14.488`. */
export function amsterdamWallTime(instant: string | Date): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Amsterdam',
    hourCycle: 'h23',
    fractionalSecondDigits: 3,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}:${get('second')}.${get('fractionalSecond')}`;
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * POST /assets outside the suite's HTTP client, keeping the answer even when the target answers
 * before the whole body was sent and closes the connection (a legitimate way to refuse a large
 * upload, RFC 9110 §15.5.14, which undici reports as EPIPE instead of the answer). For the 413
 * check only; the exchange is not recorded, so the check notes what it saw.
 */
export async function postAssetRaw(ctx: CheckContext, bytes: Buffer, options: UploadOptions): Promise<RawAnswer> {
  const { body, contentType } = multipart([
    {
      name: 'file',
      data: bytes,
      filename: options.filename,
      contentType: options.contentType ?? 'application/octet-stream',
    },
  ]);
  const choice = options.token ?? writerToken(ctx);
  const value = typeof choice === 'object' ? choice.bearer : choice === 'none' ? undefined : ctx.tokens[choice];
  const url = new URL(ctx.http.url('/assets'));
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<RawAnswer>((resolve, reject) => {
    let answered = false;
    const req = send(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': contentType,
          'content-length': String(body.length),
          accept: 'application/json',
          ...(value ? { authorization: `Bearer ${value}` } : {}),
        },
        timeout: options.timeoutMs ?? 60_000,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer in time')));
    // A write error after the answer arrived is the early refusal itself.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.end(body);
  });
}

/** Uploads `count` tiny distinct PNGs one after the other (distinct `created` instants), named `<tag>-<i>.png`. */
export async function uploadSeries(
  ctx: CheckContext,
  label: string,
  count: number,
  options: { sameBytes?: boolean; requirements?: readonly string[] } = {},
): Promise<Asset[]> {
  const out: Asset[] = [];
  const same = await png(3, 3);
  for (let i = 0; i < count; i++) {
    const bytes = options.sameBytes ? same : await png(3 + i, 3, { r: 10 * i, g: 100, b: 200 - 10 * i });
    const { asset } = await uploadAsset(ctx, bytes, {
      filename: `${ctx.tag(label)}-${i}.png`,
      contentType: 'image/png',
      requirements: options.requirements,
    });
    out.push(asset);
    await ctx.sleep(5); // distinct millisecond timestamps
  }
  return out;
}
