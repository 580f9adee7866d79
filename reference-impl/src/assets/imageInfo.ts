import sharp from 'sharp';

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * The displayed size of an image (after its EXIF orientation; one frame of an animation), read from
 * its header without decoding pixels. Undefined when the bytes are not a readable image.
 */
export async function readImageSize(input: string | Buffer): Promise<ImageSize | undefined> {
  try {
    // Header only: the pixel limit is the resizer's business, not the upload's.
    const meta = await sharp(input, { limitInputPixels: false }).metadata();
    const width = meta.autoOrient?.width ?? meta.width;
    const height = meta.autoOrient?.height ?? meta.height;
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) return undefined;
    return { width, height };
  } catch {
    return undefined;
  }
}
