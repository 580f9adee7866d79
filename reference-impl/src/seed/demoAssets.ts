import { createHash, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { AssetFileStore } from '../assets/fileStore.ts';
import type { Queryable } from '../storage/db.ts';
import { insertAsset } from '../storage/assets/insertAsset.ts';
import { updateAsset } from '../storage/assets/updateAsset.ts';

// A few small images for `GET /assets` on a fresh start: drawn here (no binary files in the
// repository), stored as an upload would store them, one of them later edited so that it has
// `modified` and the others do not.

interface DemoAsset {
  filename: string;
  format: 'jpeg' | 'png';
  width: number;
  height: number;
  colours: readonly [string, string];
  title?: string;
  description?: string;
  /** Metadata edited after the upload, which sets `modified`. */
  edit?: { title: string; description: string };
}

const DEMO_ASSETS: readonly DemoAsset[] = [
  {
    filename: 'grachtenfestival-prinsengracht.jpg',
    format: 'jpeg',
    width: 640,
    height: 400,
    colours: ['#1d4e89', '#f2a541'],
    title: 'Grachtenfestival op de Prinsengracht',
  },
  {
    filename: 'rijksmuseum-tuinen.png',
    format: 'png',
    width: 400,
    height: 400,
    colours: ['#2e7d32', '#c8e6c9'],
  },
  {
    filename: 'jaarbeurs-hal.jpg',
    format: 'jpeg',
    width: 480,
    height: 320,
    colours: ['#6a1b9a', '#ffd54f'],
    title: 'Jaarbeurs',
    edit: { title: 'Jaarbeurs Utrecht, hal 7', description: 'De hal tijdens de opbouw van een beurs.' },
  },
];

/** A simple picture: two colours in diagonal bands with a sun, so it is clearly an image. */
async function draw(asset: DemoAsset): Promise<Buffer> {
  const [ground, accent] = asset.colours;
  const { width: w, height: h } = asset;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
    <rect width="${w}" height="${h}" fill="${ground}"/>
    <polygon points="0,${h} ${w},${h * 0.55} ${w},${h}" fill="${accent}" opacity="0.8"/>
    <circle cx="${w * 0.75}" cy="${h * 0.3}" r="${Math.min(w, h) * 0.12}" fill="${accent}"/>
  </svg>`;
  const image = sharp(Buffer.from(svg));
  return asset.format === 'jpeg' ? image.jpeg({ quality: 80 }).toBuffer() : image.png().toBuffer();
}

/** Stores the demo images as assets of `accountId`; returns how many. */
export async function seedDemoAssets(
  db: Queryable,
  store: AssetFileStore,
  accountId: string,
  now: () => number = Date.now,
): Promise<number> {
  for (const asset of DEMO_ASSETS) {
    const bytes = await draw(asset);
    const id = randomUUID();
    const staged = store.stage();
    try {
      await staged.write(bytes);
      await staged.commit(id);
    } finally {
      await staged.discard();
    }
    await insertAsset(db, {
      id,
      account_id: accountId,
      filename: asset.filename,
      mimetype: `image/${asset.format}`,
      size: bytes.length,
      width: asset.width,
      height: asset.height,
      title: asset.title ?? null,
      description: asset.description ?? null,
      created: new Date(now()),
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    if (asset.edit)
      await updateAsset(db, { id, accountId, filename: undefined, ...asset.edit, modified: new Date(now() + 1) });
  }
  return DEMO_ASSETS.length;
}
