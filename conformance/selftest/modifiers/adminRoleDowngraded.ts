// Fault: the service does not know ROLE_ADMIN: a token asked for with it is created with
// ROLE_EXTERNAL_USER (breaks AUTH-006: token roles include ROLE_EXTERNAL_USER, ROLE_ADMIN and
// ROLE_SUPER_ADMIN).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { urlOf } from '../traffic.ts';

export function adminRoleDowngraded(): FaultModifier {
  return {
    name: 'adminRoleDowngraded',
    request(req) {
      if (req.method !== 'POST' || !/\/tokens$/.test(urlOf(req).pathname)) return req;
      const body = readJson(req.body) as { roles?: unknown } | undefined;
      if (!Array.isArray(body?.roles) || !body.roles.includes('ROLE_ADMIN')) return req;
      const roles = [...new Set(body.roles.map((r) => (r === 'ROLE_ADMIN' ? 'ROLE_EXTERNAL_USER' : r)))];
      return { ...req, body: jsonBody({ ...body, roles }) };
    },
  };
}
