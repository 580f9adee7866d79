// Shared GCRA store on Redis, so several instances enforce one limit per client IP.
//
// Why ioredis directly and not rate-limiter-flexible's RateLimiterRedis: its
// `customIncrTtlLuaScript` hook only lets a script return `{consumedPoints, ttlMs}` which the
// library compares with `points` to decide. GCRA can be squeezed into that (report
// ceil((TAT-now)/T) as "consumed", 42 on refusal), but only by hard-coding T and τ in the script
// (the hook gets points and whole-second durations, not 50 ms), by giving `consumedPoints`,
// `remainingPoints` and `isFirstInDuration` meanings they do not have, and its
// `insuranceLimiter` fallback would be a fixed-window RateLimiterMemory, i.e. a different
// policy whenever Redis is down. What is left of the library is EVALSHA plumbing, which
// ioredis' `defineCommand` already gives. So: one Lua script via defineCommand, and our own
// GCRA memory store as the fallback.
//
// Clock: the script reads Redis `TIME`, so every instance measures against the same clock
// and skew between app hosts cannot widen or narrow anyone's bucket (TATs are absolute times).
// A caller-supplied `now` overrides it; only tests do that, to be deterministic.
//
// Redis unreachable: we neither fail open nor closed. Each instance falls back to its own
// in-memory GCRA (the limit then holds per instance) and logs one warning per outage.

import { Redis } from 'ioredis';
import { DEFAULT_POLICY, retryAfterSeconds, type GcraPolicy } from './gcra.ts';
import { createMemoryStore } from './memoryStore.ts';
import type { RateLimitDecision, RateLimitStore } from './store.ts';

// KEYS[1] client key. ARGV: T ms, τ ms, now ms or '' for Redis TIME. Returns {allowed, waitMs}.
// A refusal writes nothing; the key expires when its TAT passes (then it equals "at rest").
const GCRA_LUA = `
local T = tonumber(ARGV[1])
local tau = tonumber(ARGV[2])
local now
if ARGV[3] == '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
else
  now = tonumber(ARGV[3])
end
local tat = tonumber(redis.call('GET', KEYS[1]))
if tat == nil or tat < now then tat = now end
local wait = tat - tau - now
if wait > 0 then return {0, wait} end
local newTat = tat + T
redis.call('SET', KEYS[1], string.format('%d', newTat), 'PX', string.format('%d', newTat - now))
return {1, 0}
`;

// KEYS[1] client key. ARGV: T ms, now ms or '' for Redis TIME. Gives back one slot (gcraRefund).
const GCRA_REFUND_LUA = `
local T = tonumber(ARGV[1])
local now
if ARGV[2] == '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
else
  now = tonumber(ARGV[2])
end
local tat = tonumber(redis.call('GET', KEYS[1]))
if tat == nil then return 0 end
local refunded = tat - T
if refunded <= now then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], string.format('%d', refunded), 'PX', string.format('%d', refunded - now))
end
return 1
`;

interface GcraCommand {
  rateLimitGcra(key: string, emissionMs: string, toleranceMs: string, now: string): Promise<[number, number]>;
  rateLimitGcraRefund(key: string, emissionMs: string, now: string): Promise<number>;
}

export interface Logger {
  warn(msg: string): void;
  info?(msg: string): void;
}

export interface RedisStoreOptions {
  /** A `redis://` URL (the store owns the connection) or a client the caller owns. */
  redis: string | Redis;
  keyPrefix?: string;
  policy?: GcraPolicy;
  /** Used while Redis is unreachable; defaults to a fresh in-memory GCRA store. */
  fallback?: RateLimitStore;
  log?: Logger;
  /** Names the limit in the log lines when an instance has more than one (`sign-in`). */
  label?: string;
}

/**
 * A client tuned for a limiter on the request path: never queue commands while disconnected
 * (that would stall every limited request), fail a command after 250 ms, reconnect in the
 * background.
 */
export function createRedisClient(url: string): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 250,
    connectTimeout: 1000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  // Connection errors surface through `take` (fallback + one warning); no unhandled 'error'.
  client.on('error', () => {});
  return client;
}

export interface RedisStore extends RateLimitStore {
  /** Resolves true once connected, false after `timeoutMs`; await at startup to skip a needless fallback. */
  ready(timeoutMs?: number): Promise<boolean>;
}

export function createRedisStore(options: RedisStoreOptions): RedisStore {
  const owned = typeof options.redis === 'string';
  const client = typeof options.redis === 'string' ? createRedisClient(options.redis) : options.redis;
  client.defineCommand('rateLimitGcra', { numberOfKeys: 1, lua: GCRA_LUA });
  client.defineCommand('rateLimitGcraRefund', { numberOfKeys: 1, lua: GCRA_REFUND_LUA });
  const command = client as unknown as GcraCommand;
  const policy = options.policy ?? DEFAULT_POLICY;
  const prefix = options.keyPrefix ?? 'ratelimit:gcra:';
  const fallback = options.fallback ?? createMemoryStore({ policy });
  const log = options.log ?? { warn: (msg: string) => console.warn(msg) };
  let degraded = false;

  const name = options.label === undefined ? 'rate limit' : `rate limit (${options.label})`;

  function degrade(reason: string): void {
    if (!degraded) {
      degraded = true;
      log.warn(`${name}: Redis unavailable (${reason}); limiting per instance in memory until it returns`);
    }
  }
  function recovered(): void {
    if (degraded) {
      degraded = false;
      log.info?.(`${name}: Redis reachable again; limits are shared across instances`);
    }
  }
  async function useFallback(key: string, now: number | undefined, reason: string): Promise<RateLimitDecision> {
    degrade(reason);
    return fallback.take(key, now);
  }

  return {
    ready(timeoutMs = 2000) {
      if (client.status === 'ready') return Promise.resolve(true);
      return new Promise((resolve) => {
        const done = (ok: boolean) => {
          clearTimeout(timer);
          client.off('ready', onReady);
          resolve(ok);
        };
        const onReady = () => done(true);
        const timer = setTimeout(() => done(false), timeoutMs);
        client.on('ready', onReady);
      });
    },
    async take(key, now) {
      if (client.status !== 'ready') return useFallback(key, now, `connection ${client.status}`);
      try {
        const [allowed, waitMs] = await command.rateLimitGcra(
          prefix + key,
          String(policy.emissionIntervalMs),
          String(policy.toleranceMs),
          now === undefined ? '' : String(Math.floor(now)),
        );
        recovered();
        return allowed === 1
          ? { allowed: true, retryAfterSeconds: 0 }
          : { allowed: false, retryAfterSeconds: retryAfterSeconds(waitMs) };
      } catch (err) {
        return useFallback(key, now, err instanceof Error ? err.message : String(err));
      }
    },
    async refund(key, now) {
      if (client.status !== 'ready') {
        degrade(`connection ${client.status}`);
        return fallback.refund(key, now);
      }
      try {
        await command.rateLimitGcraRefund(
          prefix + key,
          String(policy.emissionIntervalMs),
          now === undefined ? '' : String(Math.floor(now)),
        );
        recovered();
      } catch (err) {
        degrade(err instanceof Error ? err.message : String(err));
        await fallback.refund(key, now);
      }
    },
    async close() {
      if (owned) client.disconnect();
    },
  };
}
