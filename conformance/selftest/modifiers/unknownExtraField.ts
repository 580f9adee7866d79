// Conforming variation: every JSON object of an answer (the body, or each element of a list) carries
// one field the interface does not name. Clients must tolerate unknown fields, and so must the suite.

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { isJson } from '../traffic.ts';

export const EXTRA_FIELD = 'vendorNote';

const withExtra = (value: unknown): unknown =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? { ...value, [EXTRA_FIELD]: 'added by unknownExtraField' }
    : value;

export function unknownExtraField(): FaultModifier {
  return {
    name: 'unknownExtraField',
    response(res) {
      if (!isJson(res)) return res;
      const body = readJson(res.body);
      if (typeof body !== 'object' || body === null) return res;
      return { ...res, body: jsonBody(Array.isArray(body) ? body.map(withExtra) : withExtra(body)) };
    },
  };
}
