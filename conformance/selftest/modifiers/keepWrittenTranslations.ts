// Fault: labels sent on write are stored and returned instead of the ontology's (breaks ONTO-005:
// translations sent on write are ignored and filled in from the ontology on every read).

import type { FaultModifier } from '../faultProxy.ts';
import { readJson } from '../faultProxy.ts';
import type { Item } from '../traffic.ts';
import { COLLECTIONS, mapItems, urlOf } from '../traffic.ts';

type Category = { catid?: unknown; categoryTranslations?: unknown; categoryvalues?: Category[] };
const WRITE_RE = new RegExp(`/(${COLLECTIONS.join('|')})(/[^/]+)?$`);

function labelsOf(item: Item): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const cats = item.trcItemCategories as { types?: Category[]; categories?: Category[] } | undefined;
  const walk = (list: Category[] | undefined) => {
    for (const c of list ?? []) {
      if (typeof c.catid === 'string' && c.categoryTranslations !== undefined) out.set(c.catid, c.categoryTranslations);
      walk(c.categoryvalues);
    }
  };
  walk(cats?.types);
  walk(cats?.categories);
  return out;
}

function restore(list: Category[] | undefined, written: Map<string, unknown>): [Category[] | undefined, boolean] {
  if (!Array.isArray(list)) return [list, false];
  let changed = false;
  const out = list.map((c) => {
    const [values, inner] = restore(c.categoryvalues, written);
    const label = typeof c.catid === 'string' ? written.get(c.catid) : undefined;
    if (label === undefined && !inner) return c;
    changed = true;
    return {
      ...c,
      ...(label !== undefined ? { categoryTranslations: label } : {}),
      ...(inner ? { categoryvalues: values } : {}),
    };
  });
  return [out, changed];
}

export function keepWrittenTranslations(): FaultModifier {
  const written = new Map<string, Map<string, unknown>>();
  return {
    name: 'keepWrittenTranslations',
    response(res, req) {
      if ((req.method === 'POST' || req.method === 'PUT') && WRITE_RE.test(urlOf(req).pathname) && res.status < 300) {
        const draft = readJson(req.body) as Item | undefined;
        const saved = readJson(res.body) as Item | undefined;
        const trcid = (saved?.trcid ?? draft?.trcid) as string | undefined;
        if (draft && trcid) {
          const labels = labelsOf(draft);
          if (labels.size > 0) written.set(trcid, labels);
        }
      }
      return mapItems(res, (item) => {
        const labels = written.get(String(item.trcid));
        const cats = item.trcItemCategories as { types?: Category[]; categories?: Category[] } | undefined;
        if (!labels || !cats) return item;
        const [types, t] = restore(cats.types, labels);
        const [categories, c] = restore(cats.categories, labels);
        return t || c ? { ...item, trcItemCategories: { ...cats, types, categories } } : item;
      });
    },
  };
}
