import type { Principal } from '../http/principal.ts';
import type { Db, Listener } from '../storage/db.ts';
import type { Logger } from '../logger.ts';

// The principals of account tokens seen lately, so that a request costs no database round trip
// to authenticate (the list endpoints' answers are mostly that round trip and the list query).
// Correct across instances because the store notifies every change that can alter a principal
// (migration 009) and each instance then forgets everything; an instance that can't hear those
// notifications caches nothing. Only tokens that resolved are kept: an unknown bearer always
// reaches the database, so random values can't fill the cache.

const AUTH_CHANGED_CHANNEL = 'auth_changed';

export interface TokenCache {
  /** The principal cached for a token hash; undefined when none (or while not listening). */
  get(tokenHash: string): Principal | undefined;
  /**
   * Call before reading a token from the database; the function returned caches what was read,
   * unless a change was heard in between (then the row read may already be the old one).
   */
  beginLookup(): (tokenHash: string, principal: Principal) => void;
  /** A change was made here or heard from the store: forget every principal. */
  clear(): void;
  /** Whether changes are being heard; while not, nothing is cached. */
  setListening(listening: boolean): void;
}

export interface TokenCacheOptions {
  now: () => number;
  /** Beyond this the oldest entry goes. */
  maxEntries?: number;
  /** A backstop only: changes clear the cache when they commit. */
  maxAgeMs?: number;
}

export function createTokenCache(options: TokenCacheOptions): TokenCache {
  const { now, maxEntries = 10_000, maxAgeMs = 60_000 } = options;
  const entries = new Map<string, { principal: Principal; at: number }>();
  let generation = 0;
  let listening = false;

  const clear = () => {
    generation++;
    entries.clear();
  };
  return {
    get(tokenHash) {
      const entry = entries.get(tokenHash);
      if (entry === undefined) return undefined;
      if (now() - entry.at >= maxAgeMs) {
        entries.delete(tokenHash);
        return undefined;
      }
      return entry.principal;
    },
    beginLookup() {
      const started = generation;
      return (tokenHash, principal) => {
        if (!listening || generation !== started) return;
        entries.delete(tokenHash);
        entries.set(tokenHash, { principal, at: now() });
        if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      };
    },
    clear,
    setListening(value) {
      listening = value;
      clear();
    },
  };
}

/** Keeps `cache` listening to the store's auth changes (migration 009) until the listener closes. */
export async function listenForAuthChanges(db: Db, cache: TokenCache, logger: Logger): Promise<Listener> {
  return db.listen(AUTH_CHANGED_CHANNEL, {
    onNotify: () => cache.clear(),
    onState: (listening) => {
      cache.setListening(listening);
      if (!listening)
        logger.warn('auth change notifications lost: token lookups go to the database until they are heard again');
      else logger.debug('listening for auth changes');
    },
  });
}
