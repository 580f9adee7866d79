// The five root item collections and the entity type each holds (ITEM-028).

export interface Collection {
  path: '/events' | '/locations' | '/venues' | '/eventgroups' | '/routes';
  entitytype: 'EVENEMENT' | 'LOCATIE' | 'VENUE' | 'EVENTGROUP' | 'ROUTE';
}

export const COLLECTIONS: readonly Collection[] = [
  { path: '/events', entitytype: 'EVENEMENT' },
  { path: '/locations', entitytype: 'LOCATIE' },
  { path: '/venues', entitytype: 'VENUE' },
  { path: '/eventgroups', entitytype: 'EVENTGROUP' },
  { path: '/routes', entitytype: 'ROUTE' },
];
