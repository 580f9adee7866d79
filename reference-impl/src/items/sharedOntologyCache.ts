import { createOntologyCache, type OntologyCache } from '../dictionary/ontologyCache.ts';
import type { Queryable } from '../storage/db.ts';

// One ontology cache per Db, shared by the item routes, the dictionary routes and the item
// service, so that parsed ontologies are held once. (Correctness does not depend on sharing: the
// cache compares versions with the database on every lookup; sharing saves memory and lets the
// dictionary PUT's `invalidate` free the old entry at once.) Keyed weakly: a closed Db's cache goes
// with it.
const caches = new WeakMap<Queryable, OntologyCache>();

export function sharedOntologyCache(db: Queryable): OntologyCache {
  let cache = caches.get(db);
  if (cache === undefined) {
    cache = createOntologyCache(db);
    caches.set(db, cache);
  }
  return cache;
}
