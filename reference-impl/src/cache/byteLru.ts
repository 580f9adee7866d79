/** A least-recently-used map of byte buffers that holds at most `maxBytes` in total. */
export class ByteLru {
  readonly maxBytes: number;
  #bytes = 0;
  readonly #entries = new Map<string, Buffer>();

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  get(key: string): Buffer | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      // Map keeps insertion order: re-inserting makes it the most recent.
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  /** Stores `value` unless it alone would take more than an eighth of the budget. */
  set(key: string, value: Buffer): void {
    if (value.length > this.maxBytes / 8) return;
    const old = this.#entries.get(key);
    if (old !== undefined) {
      this.#bytes -= old.length;
      this.#entries.delete(key);
    }
    this.#entries.set(key, value);
    this.#bytes += value.length;
    for (const [oldest, buffer] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= buffer.length;
    }
  }

  get size(): number { return this.#entries.size; }
  get bytes(): number { return this.#bytes; }
}
