// Conforming variation: /auth/logout is a GET; POST answers 405 ("Its HTTP method: not shown";
// our DEC-AUTH-003). The proxy turns the GET into the reference service's POST.

import type { FaultModifier } from '../faultProxy.ts';
import { jsonAnswer, urlOf } from '../traffic.ts';

export function logoutByGet(): FaultModifier {
  return {
    name: 'logoutByGet',
    request(req) {
      if (!/\/auth\/logout$/.test(urlOf(req).pathname)) return req;
      if (req.method === 'GET') return { ...req, method: 'POST' };
      return {
        ...req,
        answer: jsonAnswer(
          405,
          { status: 405, error: 'Method Not Allowed', message: 'logout is GET /auth/logout' },
          { allow: 'GET' },
        ),
      };
    },
  };
}
