// Conforming variation: token objects carry their id as `tokenId` instead of `id` (the interface
// names the path parameter {tokenId} but no member of the token object). The same values
// address the token in paths.

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { isJson, urlOf } from '../traffic.ts';

const TOKENS_RE = /\/accounts\/[^/]+\/tokens(?:\/[^/]+(?:\/rotate-secret)?)?$/;

const renamed = (value: unknown): unknown => {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('id' in value)) return value;
  const { id, ...rest } = value as Record<string, unknown>;
  return { tokenId: id, ...rest };
};

export function tokenIdField(): FaultModifier {
  return {
    name: 'tokenIdField',
    response(res, req) {
      if (!TOKENS_RE.test(urlOf(req).pathname) || !isJson(res) || res.status >= 300) return res;
      const body = readJson(res.body);
      const next = Array.isArray(body) ? body.map(renamed) : renamed(body);
      return JSON.stringify(next) === JSON.stringify(body) ? res : { ...res, body: jsonBody(next) };
    },
  };
}
