import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

// Test files made on the fly: real images from sharp, and hand-built bytes for the hostile cases.

export async function makeImage(
  format: 'jpeg' | 'png' | 'webp' | 'gif',
  width: number,
  height: number,
): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .toFormat(format)
    .toBuffer();
}

/** An animated GIF or WebP of `frames` differently coloured frames of width × height. */
export async function makeAnimation(
  format: 'gif' | 'webp',
  width: number,
  height: number,
  frames = 3,
): Promise<Buffer> {
  const pages = await Promise.all(
    Array.from({ length: frames }, (_, i) =>
      sharp({ create: { width, height, channels: 4, background: { r: 60 * i, g: 120, b: 200 - 50 * i, alpha: 1 } } })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(pages, { join: { animated: true } })
    .toFormat(format)
    .toBuffer();
}

/** A JPEG of random noise: incompressible, so its size is about width × height × 3 / 4 bytes. */
export async function makeNoiseJpeg(width: number, height: number): Promise<Buffer> {
  const pixels = randomBytes(width * height * 3);
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
}

/** The smallest thing file-type calls a PDF, padded to `size` bytes. */
export function makePdf(size = 400): Buffer {
  const head = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n');
  const tail = Buffer.from('\n%%EOF\n');
  return Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length - tail.length), 0x20), tail]);
}

/** A Windows executable's first bytes: what an attacker uploads as `photo.jpg`. */
export function makeExe(): Buffer {
  const bytes = Buffer.alloc(512);
  bytes.write('MZ', 0, 'latin1');
  bytes.writeUInt32LE(0x80, 0x3c);
  bytes.write('PE\0\0', 0x80, 'latin1');
  return bytes;
}

/**
 * A decompression bomb in miniature: a valid PNG of a few dozen bytes whose header claims
 * `width` × `height` pixels.
 */
export function makeBombPng(width = 100_000, height = 100_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth; colour type 0 (grey), no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.alloc(1024))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

export interface UploadPart {
  bytes: Buffer;
  filename?: string;
  /** What the client claims; the service never trusts it. */
  contentType?: string;
  title?: string;
  description?: string;
  /** Extra parts, to test the part rules. */
  extra?: Record<string, string>;
}

/** POST /assets as a browser form would send it. */
export function uploadAsset(baseUrl: string, token: string, part: UploadPart): Promise<Response> {
  const form = new FormData();
  if (part.title !== undefined) form.append('title', part.title);
  if (part.description !== undefined) form.append('description', part.description);
  for (const [name, value] of Object.entries(part.extra ?? {})) form.append(name, value);
  form.append(
    'file',
    new Blob([part.bytes], { type: part.contentType ?? 'application/octet-stream' }),
    part.filename ?? 'upload.bin',
  );
  return fetch(`${baseUrl}/assets`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
}
