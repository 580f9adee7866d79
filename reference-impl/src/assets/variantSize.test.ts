import { describe, expect, it } from 'vitest';
import { variantSize } from './variantSize.ts';

const source = { width: 400, height: 300 };

describe('variantSize [DEC-ASSET-003, DEC-ASSET-008]', () => {
  it('when only w or only h is given, then the aspect ratio is kept whatever the mode', () => {
    for (const mode of ['fit', 'cover', 'stretch'] as const) {
      expect(variantSize(source, { w: 200, mode })).toEqual({ width: 200, height: 150, fit: 'fill', mode: 'fit' });
      expect(variantSize(source, { h: 30, mode })).toEqual({ width: 40, height: 30, fit: 'fill', mode: 'fit' });
    }
  });

  it('when both are given, then fit stays inside the box, cover fills it, stretch takes it', () => {
    expect(variantSize(source, { w: 100, h: 100, mode: 'fit' })).toMatchObject({ width: 100, height: 75 });
    expect(variantSize(source, { w: 100, h: 100, mode: 'cover' })).toEqual({
      width: 100,
      height: 100,
      fit: 'cover',
      mode: 'cover',
    });
    expect(variantSize(source, { w: 100, h: 10, mode: 'stretch' })).toEqual({
      width: 100,
      height: 10,
      fit: 'fill',
      mode: 'stretch',
    });
  });

  it('when the box reaches beyond the source, then nothing is enlarged; the original answers when nothing would change', () => {
    expect(variantSize(source, { mode: 'fit' })).toBeUndefined();
    expect(variantSize(source, { w: 4000, mode: 'fit' })).toBeUndefined();
    expect(variantSize(source, { w: 400, h: 300, mode: 'cover' })).toBeUndefined();
    expect(variantSize(source, { w: 4000, h: 4000, mode: 'stretch' })).toBeUndefined();
    expect(variantSize(source, { w: 800, h: 800, mode: 'cover' })).toMatchObject({ width: 300, height: 300 });
    expect(variantSize(source, { w: 1600, h: 300, mode: 'cover' })).toMatchObject({ width: 400, height: 75 });
    expect(variantSize(source, { w: 800, h: 10, mode: 'stretch' })).toMatchObject({ width: 400, height: 10 });
  });

  it('when the scale rounds to nothing, then at least one pixel', () => {
    expect(variantSize({ width: 4000, height: 10 }, { w: 1, mode: 'fit' })).toMatchObject({ width: 1, height: 1 });
  });
});
