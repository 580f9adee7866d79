// Conforming variation: every error answer other than the size rejection has another JSON shape,
// `{code, detail}` ("Body shape of statuses other than the size rejection: not shown"; our
// DEC-ERR-001). Still JSON: bodies and responses are JSON unless stated (API-001).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { isJson } from '../traffic.ts';

const SIZE_REJECTION = /^size must not exceed /;

export function errorBodiesOtherShape(): FaultModifier {
  return {
    name: 'errorBodiesOtherShape',
    response(res) {
      if (res.status < 400 || !isJson(res)) return res;
      const body = readJson(res.body) as { message?: unknown } | undefined;
      const message = typeof body?.message === 'string' ? body.message : res.body.toString('utf8');
      if (res.status === 400 && SIZE_REJECTION.test(message)) return res;
      return { ...res, body: jsonBody({ code: `E${res.status}`, detail: message }) };
    },
  };
}
