// Fault: any token may start a feed run, not only an admin's (breaks FEED-003).

import type { FaultModifier } from '../faultProxy.ts';
import { bearerOf, urlOf, withBearer } from '../traffic.ts';

export function feedsOpenToConsumers(tokens: { consumer: string; admin: string }): FaultModifier {
  return {
    name: 'feedsOpenToConsumers',
    request(req) {
      if (
        req.method !== 'POST' ||
        !/\/feeds\/[^/]+\/fetchAndConvertOnce$/.test(urlOf(req).pathname) ||
        bearerOf(req) !== tokens.consumer
      )
        return req;
      return withBearer(req, tokens.admin);
    },
  };
}
