// Fault: sign-in takes a form-encoded body only; a JSON body answers 415 (breaks VER-004: sign-in
// is a POST with a JSON body).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonAnswer, urlOf } from '../traffic.ts';

export function signinJsonRefused(): FaultModifier {
  return {
    name: 'signinJsonRefused',
    request(req) {
      if (req.method !== 'POST' || !/\/auth\/signin$/.test(urlOf(req).pathname)) return req;
      if (!/json/.test(req.headers['content-type'] ?? '')) return req;
      return {
        ...req,
        answer: jsonAnswer(415, {
          status: 415,
          error: 'Unsupported Media Type',
          message: 'sign-in takes application/x-www-form-urlencoded',
        }),
      };
    },
  };
}
