import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';
import { amsterdamWallTime, listAssets, uploadSeries } from '../../support/assets.ts';
import type { Asset } from '../../support/assets.ts';
import { writerToken } from '../../support/organisations.ts';

export default defineCheck({
  id: 'assets.lastupdated-filter',
  title:
    'The assets lastupdated filter is inclusive, matches modified (else created), reads a value without offset as Europe/Amsterdam, takes a date, and answers 400 to an unparseable value',
  requirements: ['ASSET-008', 'ASSET-010', 'ASSET-009', 'ERR-002', 'DEC-LIST-005'],
  tags: ['assets'],
  needs: ['write'],
  writes: 'four tiny PNG assets (the interface has no asset delete)',
  run: async (ctx) => {
    // a, b, c, d uploaded in this order; then a's metadata changes, so it matches by modified.
    const [a, b, c, d] = (await uploadSeries(ctx, 'asset-filter', 4, { requirements: ['ASSET-008'] })) as [
      Asset,
      Asset,
      Asset,
      Asset,
    ];
    await ctx.sleep(5);
    const put = await ctx.http.put(`/assets/${encodeURIComponent(a.id)}`, {
      token: writerToken(ctx),
      json: { title: ctx.tag('changed') },
    });
    assertStatus(put, 200, { requirements: ['ASSET-010'] });
    const boundary = c.created!;
    if (!(Date.parse(b.created!) < Date.parse(boundary))) {
      ctx.unverified(
        ['ASSET-008', 'ASSET-010', 'ASSET-009'],
        `two uploads got the same created (${b.created}); the filter cannot be told apart`,
      );
      return;
    }
    const ours = (results: Asset[]) =>
      [a, b, c, d]
        .filter((x) => results.some((r) => r.id === x.id))
        .map((x) => (x === a ? 'a' : x === b ? 'b' : x === c ? 'c' : 'd'));
    const expect = async (value: string, requirements: string[], why: string) => {
      const { res, page } = await listAssets(
        ctx,
        { lastupdated: value, sortField: 'date', sortOrder: 'asc', size: 1000 },
        { requirements },
      );
      const got = ours(page.results);
      const want = ['a', 'c', 'd'];
      if (got.join() !== want.join()) {
        // b, c and d tell inclusiveness and created apart (ASSET-008); a, changed later, the match on modified (ASSET-010).
        const blamed = requirements.includes('ASSET-010')
          ? [
              ...(got.filter((k) => k !== 'a').join() !== 'c,d' ? ['ASSET-008'] : []),
              ...(got.includes('a') ? [] : ['ASSET-010']),
            ]
          : requirements;
        throw new CheckFailure({
          message: `GET /assets?lastupdated=${value} (${why}) returned ${got.join(', ') || 'none'} of the four uploads; c was created at ${boundary}, b before it, d after it, and a before it but modified after`,
          received: got,
          expected: want,
          requirements: blamed,
          exchanges: [res.exchange],
        });
      }
    };

    // Inclusive (c itself), matched on created when there is no modified (b out, d in) and on modified (a in).
    await expect(boundary, ['ASSET-008', 'ASSET-010'], 'the created of c, with its offset');
    ctx.verified(['ASSET-008', 'ASSET-010']);
    // The same instant as Amsterdam wall-clock time without an offset.
    await expect(
      amsterdamWallTime(boundary),
      ['ASSET-009'],
      'the same instant as Europe/Amsterdam local time, no offset',
    );
    ctx.verified(['ASSET-009']);

    // A date alone is accepted (the start of that day in Amsterdam, DEC-LIST-005).
    const today = amsterdamWallTime(a.created!).slice(0, 10);
    if (today === amsterdamWallTime(d.created!).slice(0, 10)) {
      const { res, page } = await listAssets(ctx, { lastupdated: today, size: 1000 }, { requirements: ['ASSET-008'] });
      if (ours(page.results).length !== 4) {
        throw new CheckFailure({
          message: `GET /assets?lastupdated=${today} (the uploads' day in Amsterdam) returned ${ours(page.results).join(', ') || 'none'} of the four uploads`,
          received: ours(page.results),
          expected: ['a', 'b', 'c', 'd'],
          requirements: ['ASSET-008', 'DEC-LIST-005'],
          exchanges: [res.exchange],
        });
      }
    }

    // Unparseable: 400.
    for (const bad of ['not-a-date', '2026-13-45T25:61:00Z']) {
      const res = await ctx.http.get('/assets', {
        query: { lastupdated: bad },
        token: writerToken(ctx),
        validate: 'defer',
      });
      assertStatus(res, 400, {
        requirements: ['ERR-002'],
        message: `GET /assets?lastupdated=${bad} answered ${res.status}`,
      });
      res.assertConforms(['ERR-002']);
    }
  },
});
