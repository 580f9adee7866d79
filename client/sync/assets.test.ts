import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { assetStamp, fetchAssetsSince } from './assets.ts';
import { compareInstants } from './instant.ts';
import { SyncProtocolError } from './keyset.ts';
import type { AssetRecord, AssetSource, ListAssetsQuery } from './types.ts';

/** The assets list semantics: inclusive filter on modified-else-created, sort by it asc, id tiebreaker, zero-based page. */
function fakeAssets(assets: AssetRecord[]) {
  const calls: ListAssetsQuery[] = [];
  const source: AssetSource<AssetRecord> = {
    async listAssets(query) {
      calls.push({ ...query });
      const key = (a: AssetRecord) => assetStamp(a)!;
      const matching = assets
        .filter((a) => query.lastupdated === undefined || compareInstants(key(a), query.lastupdated) >= 0)
        .sort((a, b) =>
          (a.modified === undefined) === (b.modified === undefined)
            ? compareInstants(key(a), key(b)) || (a.id < b.id ? -1 : 1)
            : a.modified === undefined
              ? -1
              : 1,
        );
      return {
        size: query.size,
        page: query.page,
        hits: matching.length,
        results: matching.slice(query.page * query.size, (query.page + 1) * query.size),
      };
    },
  };
  return { source, calls };
}

const at = (min: number) => new Date(Date.UTC(2026, 7, 1, 0, min)).toISOString();

describe('fetchAssetsSince', () => {
  it('when assets have modified, else created, then the mark advances with that value [ASSET-016]', async () => {
    const { source, calls } = fakeAssets([
      { id: 'a', created: at(1) },
      { id: 'b', created: at(0), modified: at(5) },
      { id: 'c', created: at(3) },
    ]);
    const res = await fetchAssetsSince(source, undefined, { size: 2 });
    expect(res.mark).toBe(at(5));
    expect(res.assets.map((a) => a.id).sort()).toEqual(['a', 'b', 'c']);
    expect(calls).toEqual([
      { sortField: 'modified', sortOrder: 'asc', size: 2, page: 0 },
      { sortField: 'modified', sortOrder: 'asc', size: 2, page: 1 },
    ]);
  });

  it('when a mark is given, then it is sent as lastupdated on every page and the page number advances', async () => {
    const assets = Array.from({ length: 7 }, (_, i) => ({ id: `x${i}`, created: at(0), modified: at(10 + i) }));
    const { source, calls } = fakeAssets(assets);
    const res = await fetchAssetsSince(source, at(12), { size: 2 });
    expect(calls.map((c) => [c.lastupdated, c.page])).toEqual([
      [at(12), 0],
      [at(12), 1],
      [at(12), 2],
    ]);
    expect(res).toMatchObject({ mark: at(16), pages: 3, hits: 5 });
    expect(res.assets.map((a) => a.id)).toEqual(['x2', 'x3', 'x4', 'x5', 'x6']);
  });

  it('when nothing changed, then the mark stays as given', async () => {
    const { source } = fakeAssets([{ id: 'a', created: at(1) }]);
    expect(await fetchAssetsSince(source, at(2))).toMatchObject({ assets: [], mark: at(2), pages: 1 });
  });

  it('when the service ignores page, then it stops with a SyncProtocolError', async () => {
    const source: AssetSource<AssetRecord> = {
      listAssets: async (q) => ({
        size: q.size,
        page: 0,
        hits: 100,
        results: [
          { id: 'a', created: at(1) },
          { id: 'b', created: at(2) },
        ],
      }),
    };
    await expect(fetchAssetsSince(source, undefined, { size: 2 })).rejects.toThrow(SyncProtocolError);
  });

  it('property: every asset at or after the mark is returned once, and the new mark is the largest stamp', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            created: fc.integer({ min: 0, max: 50 }),
            modified: fc.option(fc.integer({ min: 0, max: 50 }), { nil: undefined }),
          }),
          { maxLength: 30 },
        ),
        fc.option(fc.integer({ min: 0, max: 50 }), { nil: undefined }),
        fc.integer({ min: 1, max: 6 }),
        async (specs, markMin, size) => {
          const assets = specs.map((s, i) => ({
            id: `id${String(i).padStart(3, '0')}`,
            created: at(s.created),
            ...(s.modified !== undefined ? { modified: at(s.modified) } : {}),
          }));
          const mark = markMin === undefined ? undefined : at(markMin);
          const { source } = fakeAssets(assets);
          const res = await fetchAssetsSince(source, mark, { size });
          const expected = assets.filter((a) => mark === undefined || compareInstants(assetStamp(a)!, mark) >= 0);
          expect(res.assets.map((a) => a.id).sort()).toEqual(expected.map((a) => a.id).sort());
          const stamps = expected.map((a) => assetStamp(a)!).sort(compareInstants);
          expect(res.mark).toBe(stamps.at(-1) ?? mark);
        },
      ),
    );
  });
});
