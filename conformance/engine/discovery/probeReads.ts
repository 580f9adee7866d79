// Discovers what plain reads show: the layout of /dictionary/userorganisations (an array of
// entries, or a map keyed by organisation) and the number of the first page of GET /assets.

import type { ProbeContext, ProbeFinding } from './probe.ts';
import { finding } from './probe.ts';
import { isObject } from '../../../spec/json.ts';

export async function probeUserOrganisations(ctx: ProbeContext): Promise<ProbeFinding & { body?: unknown }> {
  const out = finding();
  const res = await ctx.http.get('/dictionary/userorganisations', { token: ctx.writer, validate: false });
  if (res.status !== 200) {
    out.notes.userOrganisationsShape = `GET /dictionary/userorganisations answered ${res.status}; the default applies`;
    return out;
  }
  if (Array.isArray(res.body)) out.found.userOrganisationsShape = 'array';
  else if (isObject(res.body)) out.found.userOrganisationsShape = 'map';
  else out.notes.userOrganisationsShape = 'the answer is neither an array nor an object; the default applies';
  return { ...out, body: res.body };
}

/**
 * The number of the first page of an item list: page 0 refused, or answering what page 1 answers
 * (the first page, clamped) while page 2 answers another item, means pages count from 1; page 0
 * answering the first page and page 1 another (or none) means from 0. A target that ignores `page`
 * leaves the default.
 */
export async function probeListFirstPage(ctx: ProbeContext): Promise<ProbeFinding> {
  const out = finding();
  const query = { size: 1, sortField: 'creationdate', sortOrder: 'ASC' };
  const first = async (page?: number) => {
    const res = await ctx.http.get('/events', { token: ctx.writer, query: { ...query, page }, validate: false });
    const items = Array.isArray(res.body) ? (res.body as unknown[]) : [];
    return { status: res.status, id: isObject(items[0]) ? items[0].id : undefined };
  };
  const plain = await first();
  const zero = await first(0);
  const one = await first(1);
  // What each request answered, in words: an item id, or that the page held none.
  const shown = (r: { status: number; id: unknown }) =>
    r.status !== 200 ? `${r.status}` : r.id === undefined ? '200, no item' : `200, item ${String(r.id)}`;
  const seen = `without page → ${shown(plain)}, page 0 → ${shown(zero)}, page 1 → ${shown(one)}`;
  if (plain.status === 200 && plain.id !== undefined) {
    if (zero.status >= 400 && zero.status < 500 && one.id === plain.id) out.found.listFirstPage = 1;
    else if (zero.status === 200 && one.status === 200 && one.id === plain.id) {
      // Page 0 clamped to the first page, or `page` ignored altogether: page 2 tells them apart.
      const two = await first(2);
      if (two.status === 200 && two.id !== undefined && two.id !== plain.id) out.found.listFirstPage = 1;
    } else if (zero.status === 200 && zero.id === plain.id && one.id !== plain.id) out.found.listFirstPage = 0;
  }
  out.notes.listFirstPage = out.found.listFirstPage === undefined ? `${seen}; the default applies` : seen;
  return out;
}

export async function probeAssetFirstPage(ctx: ProbeContext): Promise<ProbeFinding> {
  const out = finding();
  const res = await ctx.http.get('/assets', { token: ctx.writer, query: { size: 1 }, validate: false });
  const page = isObject(res.body) ? res.body.page : undefined;
  if (res.status === 200 && (page === 0 || page === 1)) {
    out.found.assetFirstPage = page;
    out.notes.assetFirstPage = `GET /assets without page answers page ${page}`;
  } else {
    out.notes.assetFirstPage = `GET /assets answered ${res.status} with page ${JSON.stringify(page)}; the default applies`;
  }
  return out;
}
