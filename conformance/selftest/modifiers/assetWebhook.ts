// Fault (webhooks): an asset upload or change is announced like an item's: the next delivery
// also carries an item for the asset (breaks HOOK-009: assets never produce a webhook). Signed
// afresh with the token's secret.

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import type { SecretBook } from '../traffic.ts';
import { resign, urlOf } from '../traffic.ts';

export function assetWebhook(secrets: SecretBook): FaultModifier {
  const changed = new Map<string, string>();
  return {
    name: 'assetWebhook',
    response(res, req) {
      const path = urlOf(req).pathname;
      if ((req.method === 'POST' || req.method === 'PUT') && res.status < 300 && /\/assets(\/[^/]+)?$/.test(path)) {
        const id = (readJson(res.body) as { id?: unknown } | undefined)?.id;
        if (typeof id === 'string')
          changed.set(id, `${new URL(req.url, 'http://proxy').pathname.replace(/\/assets.*$/, '')}/assets/${id}`);
      }
      return res;
    },
    delivery(d) {
      const secret = secrets.current(d.url);
      const body = readJson(d.body) as { items?: unknown[] } | undefined;
      if (!secret || !Array.isArray(body?.items) || changed.size === 0) return d;
      const items = [...changed].map(([id, path]) => ({
        id: `${id}_AssetUpdated`,
        trcid: id,
        resourceUri: `http://proxy${path}`,
        resourceType: 'ASSET',
        actionType: 'UPDATED',
      }));
      changed.clear();
      return resign(d, secret, { body: jsonBody({ ...body, items: [...body.items, ...items] }) });
    },
  };
}
