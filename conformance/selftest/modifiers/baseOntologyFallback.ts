// Fault: for a catid its own override does not have, an account's items are still labelled from
// the base property ontology, so a property the override removed keeps its base labels (breaks
// ONTO-015: once an account has an override the base is no longer consulted; ONTO-007 with it).

import type { FaultModifier } from '../faultProxy.ts';
import { readJson } from '../faultProxy.ts';
import type { CategoryEntry, Item } from '../traffic.ts';
import { baseAccount, endpointOf, mapCategoryEntries, urlOf } from '../traffic.ts';

type Property = { id?: string; propertytranslations?: { lang?: string; text?: string }[]; properties?: Property[] };

function byId(nodes: Property[] | undefined, into = new Map<string, Property>()): Map<string, Property> {
  for (const p of nodes ?? []) {
    if (p.id) into.set(p.id, p);
    byId(p.properties, into);
  }
  return into;
}

export function baseOntologyFallback(): FaultModifier {
  return {
    name: 'baseOntologyFallback',
    async response(res, req, tools) {
      if (!/"categories"/.test(res.body.toString('utf8'))) return res;
      const account = await baseAccount(req, tools, 'properties');
      if (!account) return res;
      const path = urlOf(req).pathname;
      const base = path.slice(0, path.length - endpointOf(req).length);
      const onto = await tools.upstream({
        ...req,
        method: 'GET',
        url: `${base}/dictionary/propertiesOntology?accountId=${encodeURIComponent(account)}`,
        body: Buffer.alloc(0),
      });
      const body = readJson(onto.body) as { propertyCategories?: { properties?: Property[] }[] } | undefined;
      const known = byId(body?.propertyCategories?.flatMap((c) => c.properties ?? []));
      return mapCategoryEntries(res, (e: CategoryEntry, item: Item) => {
        const t = e.categoryTranslations;
        const p = known.get(String(e.catid));
        if ((Array.isArray(t) && t.length > 0) || !p?.propertytranslations) return e;
        const langs = (item.translations as { availableLanguages?: string[] } | undefined)?.availableLanguages;
        const labels = p.propertytranslations
          .filter((l) => !langs || langs.includes(l.lang ?? ''))
          .map((l) => ({ lang: l.lang, label: l.text }));
        return labels.length > 0 ? { ...e, categoryTranslations: labels } : e;
      });
    },
  };
}
