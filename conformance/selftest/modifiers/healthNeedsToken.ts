// Fault: GET /actuator/health without a token is refused with 401 (breaks DEC-MISC-001: the
// health check needs no token).

import type { FaultModifier } from '../faultProxy.ts';
import { bearerOf, jsonAnswer, urlOf } from '../traffic.ts';

export function healthNeedsToken(): FaultModifier {
  return {
    name: 'healthNeedsToken',
    request(req) {
      if (!/\/actuator\/health$/.test(urlOf(req).pathname) || bearerOf(req) !== undefined) return req;
      return {
        ...req,
        answer: jsonAnswer(
          401,
          { status: 401, error: 'Unauthorized', message: 'a bearer token is required' },
          { 'www-authenticate': 'Bearer' },
        ),
      };
    },
  };
}
