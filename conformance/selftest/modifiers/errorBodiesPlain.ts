// Conforming variation: every error answer other than the size rejection is plain text, its JSON
// message as the body ("Body shape of statuses other than the size rejection: not shown"; our
// DEC-ERR-001).

import type { FaultModifier } from '../faultProxy.ts';
import { readJson } from '../faultProxy.ts';
import { isJson } from '../traffic.ts';

const SIZE_REJECTION = /^size must not exceed /;

export function errorBodiesPlain(): FaultModifier {
  return {
    name: 'errorBodiesPlain',
    response(res) {
      if (res.status < 400 || !isJson(res)) return res;
      const body = readJson(res.body) as { message?: unknown } | undefined;
      const message = typeof body?.message === 'string' ? body.message : res.body.toString('utf8');
      if (res.status === 400 && SIZE_REJECTION.test(message)) return res;
      return {
        ...res,
        headers: { ...res.headers, 'content-type': 'text/plain; charset=utf-8' },
        body: Buffer.from(`${res.status}: ${message}\n`),
      };
    },
  };
}
