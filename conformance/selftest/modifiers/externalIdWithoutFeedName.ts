// Fault: feed items carry only the partner's id as externalId, without the feed name (breaks
// ITEM-016: externalId is a composite of the feed name and the partner's id).

import type { FaultModifier } from '../faultProxy.ts';
import { mapItems } from '../traffic.ts';

export function externalIdWithoutFeedName(): FaultModifier {
  return {
    name: 'externalIdWithoutFeedName',
    response(res) {
      return mapItems(res, (item) =>
        typeof item.externalId === 'string' && item.externalId.includes(':')
          ? { ...item, externalId: item.externalId.slice(item.externalId.lastIndexOf(':') + 1) }
          : item,
      );
    },
  };
}
