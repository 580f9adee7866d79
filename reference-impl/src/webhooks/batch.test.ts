import { describe, expect, it } from 'vitest';
import { callbackItem, collapseChanges, serialiseCallbackBody } from './batch.ts';
import { createCallbackBodyValidator } from '../../test/support/webhooks/harness.ts';

const BASE = 'https://content.example.com/api';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('callbackItem', () => {
  it.each([
    ['EVENEMENT', 'UPDATED', 'EventUpdated', 'EVENT', 'events'],
    ['EVENEMENT', 'DELETED', 'EventDeleted', 'EVENT', 'events'],
    ['LOCATIE', 'UPDATED', 'LocationUpdated', 'LOCATION', 'locations'],
    ['LOCATIE', 'DELETED', 'LocationDeleted', 'LOCATION', 'locations'],
    ['ROUTE', 'UPDATED', 'RouteUpdated', 'ROUTE', 'routes'],
    ['ROUTE', 'DELETED', 'RouteDeleted', 'ROUTE', 'routes'],
    ['EVENTGROUP', 'UPDATED', 'EventGroupUpdated', 'EVENTGROUP', 'eventgroups'],
    ['EVENTGROUP', 'DELETED', 'EventGroupDeleted', 'EVENTGROUP', 'eventgroups'],
    ['VENUE', 'UPDATED', 'VenueUpdated', 'VENUE', 'venues'],
    ['VENUE', 'DELETED', 'VenueDeleted', 'VENUE', 'venues'],
  ] as const)(
    'when a %s is %s, then the entry is <id>_%s with resourceType %s under /%s [HOOK-001] [HOOK-005] [HOOK-006]',
    (entitytype, action, eventType, resourceType, collection) => {
      expect(callbackItem({ itemId: id(1), trcid: 'trc-1', entitytype, action }, BASE)).toEqual({
        id: `${id(1)}_${eventType}`,
        trcid: 'trc-1',
        resourceUri: `${BASE}/${collection}/${id(1)}`,
        resourceType,
        actionType: action,
      });
    },
  );
});

describe('collapseChanges (DEC-HOOK-004)', () => {
  const change = (row: number, item: number, action: 'UPDATED' | 'DELETED' = 'UPDATED') => ({
    id: row,
    itemId: id(item),
    trcid: `trc-${item}`,
    entitytype: 'EVENEMENT',
    action,
  });

  it('when one item changed several times, then only its latest change is sent, and every row is consumed', () => {
    const batch = collapseChanges([change(1, 1), change(2, 2), change(3, 1, 'DELETED')], { publicBaseUrl: BASE });
    expect(batch.items.map((i) => i.id)).toEqual([`${id(2)}_EventUpdated`, `${id(1)}_EventDeleted`]);
    expect(batch.consumedIds).toEqual([1, 2, 3]);
  });

  it('when more than 100 items are queued, then 100 go now and the rest stay queued, except later changes of items already in the batch', () => {
    const rows = Array.from({ length: 150 }, (_, i) => change(i + 1, i + 1));
    rows.push(change(151, 5), change(152, 120));
    const batch = collapseChanges(rows, { publicBaseUrl: BASE });
    expect(batch.items).toHaveLength(100);
    expect(batch.consumedIds).toHaveLength(101);
    expect(batch.consumedIds).toContain(151);
    expect(batch.consumedIds).not.toContain(152);
    expect(createCallbackBodyValidator()(JSON.parse(serialiseCallbackBody(batch.items).toString('utf8')))).toBeNull();
  });
});
