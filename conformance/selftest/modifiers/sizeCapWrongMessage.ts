// Fault: the size rejection is a 400 but its message is worded differently from the interface's
// exact text (breaks ERR-001: "size must not exceed 2000 (requested: N)").

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { listCollection } from '../traffic.ts';

export function sizeCapWrongMessage(): FaultModifier {
  return {
    name: 'sizeCapWrongMessage',
    response(res, req) {
      if (!listCollection(req) || res.status !== 400) return res;
      const body = readJson(res.body) as { message?: unknown } | undefined;
      if (typeof body?.message !== 'string' || !body.message.startsWith('size must not exceed')) return res;
      return {
        ...res,
        body: jsonBody({
          ...body,
          message: body.message.replace('size must not exceed 2000', 'size must be at most 2000'),
        }),
      };
    },
  };
}
