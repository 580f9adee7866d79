// Fault: the assets lastupdated filter compares created only, so an older asset changed since is
// not found (breaks ASSET-010: the filter matches modified). The proxy reads the list without the
// filter and applies it to created.

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { urlOf } from '../traffic.ts';

const WITH_OFFSET = /T.*(Z|[+-]\d{2}:?\d{2})$/;
type Page = { size: number; page: number; hits: number; results: { created?: string }[] };

export function assetsFilterOnCreated(): FaultModifier {
  return {
    name: 'assetsFilterOnCreated',
    async request(req, tools) {
      const url = urlOf(req);
      const value = url.searchParams.get('lastupdated');
      if (req.method !== 'GET' || !/\/assets$/.test(url.pathname) || !value || !WITH_OFFSET.test(value)) return req;
      const size = Number(url.searchParams.get('size') ?? 20);
      const page = Number(url.searchParams.get('page') ?? 0);
      const all = new URLSearchParams(url.searchParams);
      all.delete('lastupdated');
      all.set('size', '1000');
      all.set('page', '0');
      const whole = await tools.upstream({ ...req, url: `${url.pathname}?${all}` });
      const body = readJson(whole.body) as Page | undefined;
      if (whole.status !== 200 || !Array.isArray(body?.results)) return req;
      const from = Date.parse(value);
      const hits = body.results.filter((a) => Date.parse(a.created ?? '') >= from);
      const results = hits.slice(page * size, page * size + size);
      return { ...req, answer: { ...whole, body: jsonBody({ ...body, size, page, hits: hits.length, results }) } };
    },
  };
}
