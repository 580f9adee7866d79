// The five root item collections and the entity type each holds (ITEM-028), from the spec.

import { COLLECTIONS as BY_SEGMENT, type Collection as Segment, type EntityType } from '../../generated/constants.ts';

export interface Collection {
  path: `/${Segment}`;
  entitytype: EntityType;
}

export const COLLECTIONS: readonly Collection[] = (Object.entries(BY_SEGMENT) as Array<[Segment, EntityType]>).map(
  ([segment, entitytype]) => ({ path: `/${segment}`, entitytype }),
);
