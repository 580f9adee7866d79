// Conforming variation: the sign-in body names its fields `login` and `password` ("Request body of
// sign-in: not shown"; our DEC-AUTH-001 says username). A body with `username` is refused.

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { jsonAnswer, urlOf } from '../traffic.ts';

export function signInFieldNames(): FaultModifier {
  return {
    name: 'signInFieldNames',
    request(req) {
      if (req.method !== 'POST' || !/\/auth\/signin$/.test(urlOf(req).pathname)) return req;
      const body = readJson(req.body);
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return req;
      const { login, username, ...rest } = body as Record<string, unknown>;
      if (username !== undefined || login === undefined)
        return {
          ...req,
          answer: jsonAnswer(400, { status: 400, error: 'Bad Request', message: 'the body is {login, password}' }),
        };
      return { ...req, body: jsonBody({ ...rest, username: login }) };
    },
  };
}
