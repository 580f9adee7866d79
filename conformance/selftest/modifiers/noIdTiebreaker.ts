// Fault: items with equal sort values come in descending id order, as a sort without the id
// tiebreaker may return them (breaks DEC-LIST-003: ties are ordered by id ascending, so paging
// over equal values is stable).

import type { FaultModifier } from '../faultProxy.ts';
import type { Item } from '../traffic.ts';
import { listCollection, mapList, titleOf, urlOf } from '../traffic.ts';

function keyOf(item: Item, field: string): string {
  return JSON.stringify(field === 'title' ? titleOf(item) : item[field]);
}

export function noIdTiebreaker(): FaultModifier {
  return {
    name: 'noIdTiebreaker',
    response(res, req) {
      if (!listCollection(req)) return res;
      const q = urlOf(req).searchParams;
      const field = [...q.entries()].find(([k]) => k.toLowerCase() === 'sortfield')?.[1] ?? 'lastupdated';
      return mapList(res, (items) => {
        const out: Item[] = [];
        let changed = false;
        for (let i = 0; i < items.length;) {
          let j = i + 1;
          while (j < items.length && keyOf(items[j]!, field) === keyOf(items[i]!, field)) j++;
          const run = items.slice(i, j);
          const flipped = [...run].sort((a, b) =>
            String(a.id) < String(b.id) ? 1 : String(a.id) > String(b.id) ? -1 : 0,
          );
          if (flipped.some((x, k) => x !== run[k])) changed = true;
          out.push(...flipped);
          i = j;
        }
        return changed ? out : undefined;
      });
    },
  };
}
