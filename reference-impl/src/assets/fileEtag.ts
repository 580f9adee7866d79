import type { Variant } from './variantSize.ts';

/**
 * A strong ETag per representation (DEC-ASSET-008): the file's SHA-256, plus the output size and
 * mode for a resized variant. Bytes never change under an asset id, so the tag never goes stale;
 * it also names the variant in the resize cache. `r1` versions the resize pipeline.
 */
export function fileEtag(sha256: string, variant: Variant | undefined): string {
  const base = sha256.slice(0, 32);
  return variant === undefined ? `"${base}"` : `"${base}-r1-${variant.width}x${variant.height}-${variant.mode}"`;
}
