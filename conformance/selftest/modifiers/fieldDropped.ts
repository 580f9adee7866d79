// Fault: the service does not store one nested field of an item, so it never comes back in an
// answer (e.g. `location.address.zipcode`, breaking ITEM-008; `translations.availableLanguages`,
// ITEM-009; `shortdescription` of trcItemDetails, ITEM-007), or not for one entity type (an event's
// promotions, ITEM-023; an event group's location, ITEM-026; a route's waypoints, ITEM-027). `*` in
// the path stands for every entry of an array.

import type { FaultModifier } from '../faultProxy.ts';
import { mapItems } from '../traffic.ts';

function without(node: unknown, path: readonly string[]): unknown {
  if (typeof node !== 'object' || node === null) return node;
  const [head, ...rest] = path;
  if (head === '*') {
    if (!Array.isArray(node)) return node;
    const next = node.map((entry: unknown) => without(entry, rest));
    return next.some((entry, i) => entry !== node[i]) ? next : node;
  }
  const record = node as Record<string, unknown>;
  if (head === undefined || !(head in record)) return node;
  if (rest.length === 0) {
    const { [head]: _dropped, ...others } = record;
    return others;
  }
  const child = without(record[head], rest);
  return child === record[head] ? node : { ...record, [head]: child };
}

/** `path`: the field's keys joined with dots, `*` for every array entry; `entitytype`: only items of that kind. */
export function fieldDropped(path: string, entitytype?: string): FaultModifier {
  const keys = path.split('.');
  return {
    name: entitytype ? `fieldDropped(${entitytype}.${path})` : `fieldDropped(${path})`,
    response(res) {
      return mapItems(res, (item) =>
        entitytype === undefined || item.entitytype === entitytype ? (without(item, keys) as typeof item) : item,
      );
    },
  };
}
