// Fault (webhooks): resourceUri is built without the service's base path (/api), so it does not
// lead to the item (breaks HOOK-003: the receiver fetches resourceUri for the current state).
// Signed afresh with the token's secret.

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import type { SecretBook } from '../traffic.ts';
import { resign } from '../traffic.ts';

export function resourceUriOffBase(secrets: SecretBook): FaultModifier {
  return {
    name: 'resourceUriOffBase',
    delivery(d) {
      const secret = secrets.current(d.url);
      const body = readJson(d.body) as { items?: { resourceUri?: unknown }[] } | undefined;
      if (!secret || !Array.isArray(body?.items)) return d;
      const items = body.items.map((i) =>
        typeof i.resourceUri === 'string' ? { ...i, resourceUri: i.resourceUri.replace(/\/api\//, '/') } : i,
      );
      return resign(d, secret, { body: jsonBody({ ...body, items }) });
    },
  };
}
