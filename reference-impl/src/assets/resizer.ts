import sharp from 'sharp';
import { defaultOf, SECOND } from '../config.ts';
import { HttpError } from '../http/HttpError.ts';
import { ByteLru } from '../cache/byteLru.ts';
import type { ImageSize } from './imageInfo.ts';
import type { Variant } from './variantSize.ts';

export interface ResizerOptions {
  /** Sources above this many pixels (all frames) are refused: decompression-bomb guard. */
  maxInputPixels?: number;
  /** Outputs above this many pixels are refused (w, h ≤ 4000 already bound it). */
  maxOutputPixels?: number;
  /** Resizes running at once; more wait their turn, so a burst cannot exhaust memory. */
  maxConcurrent?: number;
  /** How long a resize may wait for its turn before the request is answered 503. */
  maxWaitMs?: number;
  /** Memory for finished variants. */
  cacheBytes?: number;
  /** A resize taking longer is abandoned. */
  timeoutSeconds?: number;
}

const RESIZER_DEFAULTS = {
  maxInputPixels: defaultOf('assetResizeMaxPixels'),
  maxOutputPixels: 4000 * 4000,
  maxConcurrent: defaultOf('assetResizeConcurrency'),
  maxWaitMs: defaultOf('assetResizeQueueTimeoutMs'),
  cacheBytes: defaultOf('assetCacheBytes'),
  timeoutSeconds: defaultOf('assetResizeTimeoutMs') / SECOND,
} as const satisfies Required<ResizerOptions>;

export interface Resizer {
  /**
   * The bytes of `variant` of the image in `input`, from the cache or made now. `key` names the
   * variant uniquely (the ETag does). Identical requests in flight share one resize. `source` is
   * the stored size of the image: one above the pixel limit is refused before anything is read.
   */
  resize(
    key: string,
    input: () => Promise<string | Buffer>,
    mimetype: string,
    variant: Variant,
    source: ImageSize,
  ): Promise<{ bytes: Buffer; cached: boolean }>;
  readonly stats: {
    readonly hits: number;
    readonly misses: number;
    readonly cachedVariants: number;
    readonly cachedBytes: number;
  };
}

// @implements DEC-ASSET-009
export function createResizer(options: ResizerOptions = {}): Resizer {
  const limits = { ...RESIZER_DEFAULTS, ...options };
  const cache = new ByteLru(limits.cacheBytes);
  const inFlight = new Map<string, Promise<Buffer>>();
  const gate = createGate(limits.maxConcurrent, limits.maxWaitMs);
  const counters = { hits: 0, misses: 0 };
  // libvips' own operation cache keeps recent decoded images for reuse; every resize here reads a
  // different source once (finished variants are in `cache`), so it only holds memory after a
  // burst. Process-wide, like the libvips it configures.
  sharp.cache(false);

  async function render(input: string | Buffer, mimetype: string, variant: Variant): Promise<Buffer> {
    if (variant.width * variant.height > limits.maxOutputPixels) {
      throw new HttpError(422, {
        message: `resized image of ${variant.width}×${variant.height} pixels exceeds the limit of ${limits.maxOutputPixels} pixels`,
      });
    }
    const animated = mimetype === 'image/gif' || mimetype === 'image/webp';
    try {
      // The output keeps the input's format: sharp writes what it read unless told otherwise.
      return await sharp(input, { limitInputPixels: limits.maxInputPixels, animated })
        .autoOrient()
        .resize(variant.width, variant.height, { fit: variant.fit, position: 'centre', withoutEnlargement: true })
        .timeout({ seconds: limits.timeoutSeconds })
        .toBuffer();
    } catch (error) {
      const reason = (error as Error).message;
      // The stored size of one frame passed; all frames of an animation together did not.
      const message = /pixel limit/i.test(reason)
        ? `the image's frames together are larger than the resize limit of ${limits.maxInputPixels} pixels; request it without w and h`
        : `the image cannot be resized: ${reason}`;
      throw new HttpError(422, { message, cause: error });
    }
  }

  return {
    async resize(key, input, mimetype, variant, source) {
      // Refused before it waits for a turn or a byte is decoded (DEC-ASSET-009).
      if (source.width * source.height > limits.maxInputPixels)
        throw new HttpError(422, {
          message: `the image has ${source.width * source.height} pixels (${source.width}×${source.height}), more than the resize limit of ${limits.maxInputPixels}; request it without w and h`,
        });
      const hit = cache.get(key);
      if (hit !== undefined) {
        counters.hits += 1;
        return { bytes: hit, cached: true };
      }
      counters.misses += 1;
      let pending = inFlight.get(key);
      if (pending === undefined) {
        pending = gate(async () => render(await input(), mimetype, variant))
          .then((bytes) => {
            cache.set(key, bytes);
            return bytes;
          })
          .finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return { bytes: await pending, cached: false };
    },
    stats: {
      get hits() {
        return counters.hits;
      },
      get misses() {
        return counters.misses;
      },
      get cachedVariants() {
        return cache.size;
      },
      get cachedBytes() {
        return cache.bytes;
      },
    },
  };
}

/**
 * Runs at most `limit` tasks at once, the rest in arrival order; a task that waited `maxWaitMs`
 * for its turn is dropped with a 503, so a burst is answered within a bounded time and no resize
 * starts for a client that has long given up.
 */
function createGate(limit: number, maxWaitMs: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  const waitForTurn = () =>
    new Promise<void>((resolve, reject) => {
      const turn = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(turn), 1);
        reject(busy(maxWaitMs));
      }, maxWaitMs);
      waiting.push(turn);
    });
  return async (task) => {
    // A finishing task hands its slot straight to the next waiter, so none can jump the queue.
    if (running < limit) running += 1;
    else await waitForTurn();
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next === undefined) running -= 1;
      else next();
    }
  };
}

function busy(maxWaitMs: number): HttpError {
  const retryAfter = Math.max(1, Math.ceil(maxWaitMs / SECOND));
  return new HttpError(503, {
    message: `every resize slot stayed busy for ${maxWaitMs / SECOND} s; retry after ${retryAfter} s, or request the original without w and h`,
    headers: { 'Retry-After': String(retryAfter) },
  });
}
