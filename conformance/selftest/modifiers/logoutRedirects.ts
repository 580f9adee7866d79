// Fault: logout signs out, then redirects to a sign-in page (breaks SESSION-002: /auth/logout
// returns 200 with a JSON message and does not redirect).

import type { FaultModifier } from '../faultProxy.ts';
import { urlOf } from '../traffic.ts';

export function logoutRedirects(): FaultModifier {
  return {
    name: 'logoutRedirects',
    response(res, req) {
      if (!/\/auth\/logout$/.test(urlOf(req).pathname) || res.status !== 200) return res;
      return { status: 302, headers: { location: '/login', 'content-type': 'text/plain' }, body: Buffer.from('Found') };
    },
  };
}
