// Fault: the property ontology's propertytranslations[] carry {lang, label} instead of {lang,
// text} (breaks ONTO-013).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { ontologyKind } from '../traffic.ts';

/** Renames `text` to `label` in every propertytranslations[] entry, at any depth. */
function relabel(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relabel);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) =>
      k === 'propertytranslations' && Array.isArray(v)
        ? [k, v.map(({ text, ...rest }: { text?: unknown }) => ({ ...rest, label: text }))]
        : [k, relabel(v)],
    ),
  );
}

export function propertyTranslationsAsLabel(): FaultModifier {
  return {
    name: 'propertyTranslationsAsLabel',
    response(res, req) {
      if (req.method !== 'GET' || ontologyKind(req) !== 'properties' || res.status !== 200) return res;
      const body = readJson(res.body);
      if (!JSON.stringify(body).includes('"propertytranslations"')) return res;
      return { ...res, body: jsonBody(relabel(body)) };
    },
  };
}
