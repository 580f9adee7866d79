// Fault: the legacy `offline` boolean equals `published` instead of its negation (breaks WF-011).

import type { FaultModifier } from '../faultProxy.ts';
import { mapItems } from '../traffic.ts';

export function offlineFollowsPublished(): FaultModifier {
  return {
    name: 'offlineFollowsPublished',
    response(res) {
      return mapItems(res, (item) =>
        typeof item.published === 'boolean' && item.offline !== item.published
          ? { ...item, offline: item.published }
          : item,
      );
    },
  };
}
