// Discovers what plain reads show: the layout of /dictionary/userorganisations (an array of
// entries, or a map keyed by organisation) and the number of the first page of GET /assets.

import type { ProbeContext, ProbeFinding } from './probe.ts';
import { finding, isObject } from './probe.ts';

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
