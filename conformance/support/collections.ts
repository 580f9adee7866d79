// The five root item collections and the entity type each holds (ITEM-028).

import { ENTITY_TYPE, type EntityType } from '../../generated/constants.ts';

export interface Collection {
  path: '/events' | '/locations' | '/venues' | '/eventgroups' | '/routes';
  entitytype: EntityType;
}

export const COLLECTIONS: readonly Collection[] = [
  { path: '/events', entitytype: ENTITY_TYPE.EVENEMENT },
  { path: '/locations', entitytype: ENTITY_TYPE.LOCATIE },
  { path: '/venues', entitytype: ENTITY_TYPE.VENUE },
  { path: '/eventgroups', entitytype: ENTITY_TYPE.EVENTGROUP },
  { path: '/routes', entitytype: ENTITY_TYPE.ROUTE },
];
