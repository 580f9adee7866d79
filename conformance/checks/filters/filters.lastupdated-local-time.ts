import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { catalogue, listCatalogue } from '../../support/sharedItems.ts';
import { onlyThese } from '../../support/lists.ts';

/** `instant` as Europe/Amsterdam wall-clock time, without an offset: 2026-11-20T09:30:00.123 */
function amsterdamLocal(instant: number): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Amsterdam',
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}:${get('second')}.${String(instant % 1000).padStart(3, '0')}`;
}

export default defineCheck({
  id: 'filters.lastupdated-local-time',
  title:
    'A lastupdated bound without a UTC offset is read in Europe/Amsterdam, and a date alone as its start of day there',
  requirements: ['DEC-LIST-005'],
  tags: ['filters', 'decision'],
  needs: ['write', 'full'],
  writes: "the run's shared catalogue (nine event groups, tagged with the run id)",
  run: async (ctx) => {
    const cat = await catalogue(ctx);
    const target = cat.entries[4]!;
    const at = Date.parse(String(target.item.lastupdated));
    const cases = [
      { bound: amsterdamLocal(at), includes: true },
      { bound: amsterdamLocal(at + 1), includes: false },
      { bound: amsterdamLocal(at).slice(0, 10), includes: true },
    ];
    for (const { bound, includes } of cases) {
      const { items, res } = await listCatalogue(ctx, cat, { lastupdated: bound });
      const found = onlyThese(items, [target.trcid]).length === 1;
      if (found !== includes) {
        throw new CheckFailure({
          message: `lastupdated=${bound} (Amsterdam time) ${includes ? 'leaves out' : 'returns'} the item last updated at ${String(target.item.lastupdated)}`,
          received: found ? 'returned' : 'left out',
          expected: includes ? 'returned' : 'left out',
          exchanges: [res.exchange],
        });
      }
    }
  },
});
