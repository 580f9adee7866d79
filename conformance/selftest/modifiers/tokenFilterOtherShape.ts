// Conforming variation: `apiTokenFilter` names its axes `organisations` and `statuses` ("Internal
// structure of apiTokenFilter: not shown"; our DEC-AUTH-004 says userorganisations and wfstatus).
// A token body with our member names is refused; answers carry the vendor's names.

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { isJson, jsonAnswer, urlOf } from '../traffic.ts';
import { isObject } from '../../../spec/json.ts';

const TOKENS_RE = /\/accounts\/[^/]+\/tokens(?:\/[^/]+(?:\/rotate-secret)?)?$/;

/** Vendor member name → ours. */
const OURS: Record<string, string> = { organisations: 'userorganisations', statuses: 'wfstatus' };

function renameFilter(token: unknown, names: Record<string, string>): unknown {
  if (!isObject(token) || !isObject(token.apiTokenFilter)) return token;
  const filter = Object.fromEntries(Object.entries(token.apiTokenFilter).map(([k, v]) => [names[k] ?? k, v]));
  return { ...token, apiTokenFilter: filter };
}

const VENDOR = Object.fromEntries(Object.entries(OURS).map(([vendor, ours]) => [ours, vendor]));

export function tokenFilterOtherShape(): FaultModifier {
  return {
    name: 'tokenFilterOtherShape',
    request(req) {
      if (!['POST', 'PUT'].includes(req.method) || !TOKENS_RE.test(urlOf(req).pathname)) return req;
      const body = readJson(req.body);
      if (!isObject(body) || !isObject(body.apiTokenFilter)) return req;
      const ours = Object.keys(body.apiTokenFilter).filter((k) => k in VENDOR);
      if (ours.length > 0)
        return {
          ...req,
          answer: jsonAnswer(400, {
            status: 400,
            error: 'Bad Request',
            message: `apiTokenFilter has no member ${ours.join(', ')}; its members are organisations and statuses`,
          }),
        };
      return { ...req, body: jsonBody(renameFilter(body, OURS)) };
    },
    response(res, req) {
      if (!TOKENS_RE.test(urlOf(req).pathname) || !isJson(res) || res.status >= 300) return res;
      const body = readJson(res.body);
      const next = Array.isArray(body) ? body.map((t) => renameFilter(t, VENDOR)) : renameFilter(body, VENDOR);
      return JSON.stringify(next) === JSON.stringify(body) ? res : { ...res, body: jsonBody(next) };
    },
  };
}
