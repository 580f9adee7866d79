import type { ImageSize } from './imageInfo.ts';

export type ResizeMode = 'fit' | 'cover' | 'stretch';

export interface ResizeRequest {
  w?: number;
  h?: number;
  mode: ResizeMode;
}

/** What to produce from a source: its output size and how sharp fits the source into it. */
export interface Variant {
  width: number;
  height: number;
  /** `fill` scales to exactly width × height (the size already keeps the aspect ratio for fit). */
  fit: 'fill' | 'cover';
  /** For the ETag and cache key: the mode that produced the size. */
  mode: ResizeMode;
}

/**
 * The output size of a resize (DEC-ASSET-003, DEC-ASSET-008), or undefined when the answer is the
 * original file (no w/h, or a box at least as large as the source in fit mode). Never larger than
 * the source in either dimension. One of w and h keeps the aspect ratio whatever the mode; `cover`
 * keeps the requested box's aspect ratio and shrinks the box when the source is smaller than it.
 */
export function variantSize(source: ImageSize, request: ResizeRequest): Variant | undefined {
  const { w, h } = request;
  if (w === undefined && h === undefined) return undefined;
  const at = (n: number) => Math.max(1, Math.round(n));

  if (w === undefined || h === undefined || request.mode === 'fit') {
    const scale = Math.min(
      1,
      w === undefined ? Infinity : w / source.width,
      h === undefined ? Infinity : h / source.height,
    );
    if (scale >= 1) return undefined;
    return { width: at(source.width * scale), height: at(source.height * scale), fit: 'fill', mode: 'fit' };
  }
  if (request.mode === 'stretch') {
    const width = Math.min(w, source.width),
      height = Math.min(h, source.height);
    if (width === source.width && height === source.height) return undefined;
    return { width, height, fit: 'fill', mode: 'stretch' };
  }
  const shrink = Math.min(1, source.width / w, source.height / h);
  const width = at(w * shrink),
    height = at(h * shrink);
  if (width === source.width && height === source.height) return undefined;
  return { width, height, fit: 'cover', mode: 'cover' };
}
