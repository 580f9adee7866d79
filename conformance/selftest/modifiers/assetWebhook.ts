// Fault: uploading or changing an asset sends a webhook, as for an item (breaks ASSET-015: assets
// are poll-only). The proxy remembers the assets written and, after the next delivery to a token,
// sends that token a delivery about them, signed as the target signs.

import { randomUUID } from 'node:crypto';
import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import type { SecretBook } from '../traffic.ts';
import { deliveryItems, resign, urlOf } from '../traffic.ts';

type Asset = { id?: unknown; url?: unknown };

export function assetWebhook(secrets: SecretBook): FaultModifier {
  const pending: Asset[] = [];
  return {
    name: 'assetWebhook',
    response(res, req) {
      if (!['POST', 'PUT'].includes(req.method) || !/\/assets(\/[^/]+)?$/.test(urlOf(req).pathname)) return res;
      const asset = readJson(res.body) as Asset | undefined;
      if (res.status < 300 && typeof asset?.id === 'string') pending.push(asset);
      return res;
    },
    async afterDelivery(delivery, _status, resend) {
      const template = deliveryItems(delivery)?.[0];
      const secret = secrets.current(delivery.url);
      if (!template || !secret || pending.length === 0) return;
      const items = pending.splice(0).map((a) => ({ ...template, id: a.id, resourceUri: a.url }));
      const extra = resign(delivery, secret, {
        body: jsonBody({ ...(readJson(delivery.body) as object), items }),
        headers: { 'x-service-delivery': randomUUID() },
      });
      await resend(extra);
    },
  };
}
