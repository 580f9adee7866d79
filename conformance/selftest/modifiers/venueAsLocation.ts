// Fault (webhooks): the service knows no venue events: a venue's webhook is a location's, with
// resourceType LOCATION (breaks HOOK-005: ten event types, VenueUpdated and VenueDeleted among
// them; and HOOK-001, the resourceType). Signed afresh with the token's secret.

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import type { SecretBook } from '../traffic.ts';
import { resign } from '../traffic.ts';

export function venueAsLocation(secrets: SecretBook): FaultModifier {
  return {
    name: 'venueAsLocation',
    delivery(d) {
      const secret = secrets.current(d.url);
      const body = readJson(d.body) as { items?: { resourceType?: unknown }[] } | undefined;
      if (!secret || !body?.items?.some((i) => i.resourceType === 'VENUE')) return d;
      const items = body.items.map((i) => (i.resourceType === 'VENUE' ? { ...i, resourceType: 'LOCATION' } : i));
      return resign(d, secret, { body: jsonBody({ ...body, items }) });
    },
  };
}
