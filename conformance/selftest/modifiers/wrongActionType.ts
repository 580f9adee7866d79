// Fault (webhooks): a create or update is announced as DELETED and a delete as UPDATED (breaks
// HOOK-006). The delivery is signed afresh with the token's secret, so only the action is wrong.

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import type { SecretBook } from '../traffic.ts';
import { resign } from '../traffic.ts';

const SWAP: Record<string, string> = { UPDATED: 'DELETED', DELETED: 'UPDATED' };

export function wrongActionType(secrets: SecretBook): FaultModifier {
  return {
    name: 'wrongActionType',
    delivery(d) {
      const secret = secrets.current(d.url);
      const body = readJson(d.body) as { items?: { actionType?: string }[] } | undefined;
      if (!secret || !Array.isArray(body?.items)) return d;
      const items = body.items.map((i) =>
        i.actionType && SWAP[i.actionType] ? { ...i, actionType: SWAP[i.actionType] } : i,
      );
      return resign(d, secret, { body: jsonBody({ ...body, items }) });
    },
  };
}
