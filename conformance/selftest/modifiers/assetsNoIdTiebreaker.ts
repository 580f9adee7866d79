// Fault: the assets list has no id tiebreaker, so assets with equal sort values come in a
// different order from one query to the next and paging repeats some and drops others (breaks
// ASSET-013). The proxy reads the whole result from the target and orders ties by ascending id
// on even pages and descending id on odd ones, as an unstable database sort might.

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { urlOf } from '../traffic.ts';

type Asset = { id: string; size?: number; created?: string; modified?: string; filename?: string };
type Page = { size: number; page: number; hits: number; results: Asset[] };

function keyOf(a: Asset, field: string): unknown {
  if (field === 'size') return a.size;
  if (field === 'name') return a.filename;
  if (field === 'modified' || field === 'lastupdated') return a.modified ?? null;
  return a.created;
}

export function assetsNoIdTiebreaker(): FaultModifier {
  return {
    name: 'assetsNoIdTiebreaker',
    async request(req, tools) {
      const url = urlOf(req);
      if (req.method !== 'GET' || !/\/assets$/.test(url.pathname)) return req;
      const q = url.searchParams;
      const size = Number(q.get('size') ?? 20);
      const page = Number(q.get('page') ?? 0);
      const field = (q.get('sortField') ?? 'date').toLowerCase();
      const all = new URLSearchParams(q);
      all.set('size', '1000');
      all.set('page', '0');
      const whole = await tools.upstream({ ...req, url: `${url.pathname}?${all}` });
      const body = readJson(whole.body) as Page | undefined;
      if (whole.status !== 200 || !Array.isArray(body?.results)) return req;
      const sign = page % 2 === 0 ? 1 : -1;
      const ordered: Asset[] = [];
      for (let i = 0; i < body.results.length;) {
        let j = i + 1;
        const key = JSON.stringify(keyOf(body.results[i]!, field));
        while (j < body.results.length && JSON.stringify(keyOf(body.results[j]!, field)) === key) j++;
        ordered.push(...body.results.slice(i, j).sort((a, b) => (a.id < b.id ? -sign : a.id > b.id ? sign : 0)));
        i = j;
      }
      const results = ordered.slice(page * size, page * size + size);
      return { ...req, answer: { ...whole, body: jsonBody({ ...body, size, page, results }) } };
    },
  };
}
