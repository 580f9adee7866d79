// Fault (webhooks): every token with a callBackUrl hears of every item, whatever its
// userorganisation filter (breaks HOOK-008). The proxy copies each delivery to every other
// webhook it has seen, signed afresh with that token's secret and a delivery id of its own.

import { randomUUID } from 'node:crypto';
import type { FaultModifier } from '../faultProxy.ts';
import type { SecretBook } from '../traffic.ts';
import { resign } from '../traffic.ts';

export function hooksIgnoreOrganisationFilter(secrets: SecretBook): FaultModifier {
  const endpoints = new Set<string>();
  return {
    name: 'hooksIgnoreOrganisationFilter',
    async afterDelivery(d, _status, resend) {
      endpoints.add(d.url);
      for (const url of endpoints) {
        const secret = secrets.current(url);
        if (url === d.url || !secret) continue;
        await resend(resign({ ...d, url }, secret, { headers: { 'x-service-delivery': randomUUID() } }));
      }
    },
  };
}
