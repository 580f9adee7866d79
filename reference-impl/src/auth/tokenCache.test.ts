import { describe, expect, it } from 'vitest';
import type { Principal } from '../http/principal.ts';
import { createTokenCache } from './tokenCache.ts';

const principal = (subjectId: string): Principal => ({
  kind: 'apiToken',
  subjectId,
  accountId: 'acc',
  roles: ['ROLE_EXTERNAL_USER'],
  organisations: ['org'],
  accountOrganisations: ['org'],
  wfstatus: ['approved'],
  canWrite: false,
});

function listeningCache(options: { maxEntries?: number; maxAgeMs?: number } = {}) {
  let now = 0;
  const cache = createTokenCache({ now: () => now, ...options });
  cache.setListening(true);
  return {
    cache,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('token cache', () => {
  it('when a lookup stores a principal, then it is served until a change clears it', () => {
    const { cache } = listeningCache();
    cache.beginLookup()('h1', principal('t1'));
    expect(cache.get('h1')?.subjectId).toBe('t1');
    cache.clear();
    expect(cache.get('h1')).toBeUndefined();
  });

  it("when a change is heard while a lookup is reading, then that lookup's (possibly old) row is not kept", () => {
    const { cache } = listeningCache();
    const store = cache.beginLookup();
    cache.clear(); // the change commits while the row is being read
    store('h1', principal('t1'));
    expect(cache.get('h1')).toBeUndefined();
    cache.beginLookup()('h1', principal('t1'));
    expect(cache.get('h1')?.subjectId).toBe('t1');
  });

  it("when changes can't be heard, then nothing is cached and what was cached is gone", () => {
    const { cache } = listeningCache();
    cache.beginLookup()('h1', principal('t1'));
    cache.setListening(false);
    expect(cache.get('h1')).toBeUndefined();
    cache.beginLookup()('h2', principal('t2'));
    expect(cache.get('h2')).toBeUndefined();
    cache.setListening(true);
    cache.beginLookup()('h2', principal('t2'));
    expect(cache.get('h2')?.subjectId).toBe('t2');
  });

  it('when an entry is older than the backstop age, then it is looked up again', () => {
    const { cache, advance } = listeningCache({ maxAgeMs: 1000 });
    cache.beginLookup()('h1', principal('t1'));
    advance(999);
    expect(cache.get('h1')).toBeDefined();
    advance(1);
    expect(cache.get('h1')).toBeUndefined();
  });

  it('when more tokens are seen than it holds, then the least recently stored go first', () => {
    const { cache } = listeningCache({ maxEntries: 2 });
    for (const n of [1, 2, 3]) cache.beginLookup()(`h${n}`, principal(`t${n}`));
    expect([1, 2, 3].map((n) => cache.get(`h${n}`)?.subjectId)).toEqual([undefined, 't2', 't3']);
  });
});
