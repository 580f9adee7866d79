// Fault: the schema.org part of seoMetadata a client writes is stored and answered instead of
// the server's own (breaks ITEM-010: the schema.org JSON-LD part is read-only).

import type { FaultModifier } from '../faultProxy.ts';
import { readJson } from '../faultProxy.ts';
import { mapItems } from '../traffic.ts';

export function writtenSchemaOrgKept(): FaultModifier {
  const written = new Map<string, unknown>();
  return {
    name: 'writtenSchemaOrgKept',
    request(req) {
      if (req.method !== 'POST' && req.method !== 'PUT') return req;
      const body = readJson(req.body) as { trcid?: unknown; seoMetadata?: { schemaOrgJsonLd?: unknown } } | undefined;
      const jsonLd = body?.seoMetadata?.schemaOrgJsonLd;
      if (typeof body?.trcid === 'string' && jsonLd !== undefined) written.set(body.trcid, jsonLd);
      return req;
    },
    response(res) {
      return mapItems(res, (item) => {
        const schemaOrgJsonLd = written.get(String(item.trcid));
        if (schemaOrgJsonLd === undefined) return item;
        const seo = (item.seoMetadata ?? {}) as Record<string, unknown>;
        return { ...item, seoMetadata: { ...seo, schemaOrgJsonLd } };
      });
    },
  };
}
