/** Counted per entry beside its bytes: the key (one byte per character, as most keys are ASCII) and the map entry. */
export const ENTRY_OVERHEAD_BYTES = 128;

/**
 * A least-recently-used map of byte buffers that holds at most `maxBytes` in total, counting each
 * entry's key and overhead too, so that many small entries are bounded as well as a few large ones.
 */
export class ByteLru {
  readonly maxBytes: number;
  #bytes = 0;
  readonly #entries = new Map<string, { value: Buffer; cost: number }>();

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  get(key: string): Buffer | undefined {
    const entry = this.#entries.get(key);
    if (entry !== undefined) {
      // Map keeps insertion order: re-inserting makes it the most recent.
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry?.value;
  }

  /** Whether `set` would keep a value of `bytes` under `key`: no entry alone takes more than an eighth of the budget. */
  accepts(key: string, bytes: number): boolean {
    return bytes + key.length + ENTRY_OVERHEAD_BYTES <= this.maxBytes / 8;
  }

  /** Stores `value` unless its entry alone would take more than an eighth of the budget. */
  set(key: string, value: Buffer): void {
    if (!this.accepts(key, value.length)) return;
    const cost = value.length + key.length + ENTRY_OVERHEAD_BYTES;
    this.delete(key);
    this.#entries.set(key, { value: ownBytes(value), cost });
    this.#bytes += cost;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.cost;
    }
  }

  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= entry.cost;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  get size(): number {
    return this.#entries.size;
  }
  /** What the entries cost: their bytes, keys and overhead. */
  get bytes(): number {
    return this.#bytes;
  }
}

/**
 * The buffer itself, or a copy when it is a slice of a larger memory (Node serves small buffers from
 * a shared 8 KiB pool): a kept slice would hold the whole pool, which the budget does not count.
 */
function ownBytes(value: Buffer): Buffer {
  if (value.byteLength === value.buffer.byteLength) return value;
  const own = Buffer.allocUnsafeSlow(value.length);
  value.copy(own);
  return own;
}
