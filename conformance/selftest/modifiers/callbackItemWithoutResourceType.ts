// Fault (webhooks): the items of a delivery carry no resourceType (breaks HOOK-001: each
// CallbackBody item has id, trcid, resourceUri, resourceType and actionType). Signed afresh with
// the token's secret, so only the body is wrong.

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import type { SecretBook } from '../traffic.ts';
import { resign } from '../traffic.ts';

export function callbackItemWithoutResourceType(secrets: SecretBook): FaultModifier {
  return {
    name: 'callbackItemWithoutResourceType',
    delivery(d) {
      const secret = secrets.current(d.url);
      const body = readJson(d.body) as { items?: Record<string, unknown>[] } | undefined;
      if (!secret || !Array.isArray(body?.items)) return d;
      const items = body.items.map(({ resourceType: _dropped, ...item }) => item);
      return resign(d, secret, { body: jsonBody({ ...body, items }) });
    },
  };
}
