import type { Readable } from 'node:stream';

/**
 * Where asset bytes live. Files are named by asset id only (a UUID, checked before any path is
 * built), so nothing a client sends, such as the file name, ever reaches a file system path.
 */
export interface AssetFileStore {
  /** A place to stream an upload into before it is accepted. */
  stage(): StagedFile;
  /** The stored bytes, or undefined when there is no file for `id`. */
  open(id: string): Promise<StoredFile | undefined>;
  remove(id: string): Promise<void>;
  /** How many files are stored (staged ones not counted); for tests and operators. */
  count(): Promise<number>;
  /**
   * Removes staged uploads last written before `before`: the leftovers of a process that died
   * mid-upload (an upload in progress writes its part file continuously). Returns how many.
   */
  pruneStaged(before: Date): Promise<number>;
}

export interface StagedFile {
  write(chunk: Buffer): Promise<void>;
  /** Makes the bytes written so far the file of `id`. */
  commit(id: string): Promise<void>;
  /** Drops the bytes written so far; safe to call more than once and after commit fails. */
  discard(): Promise<void>;
}

export interface StoredFile {
  size: number;
  stream(): Readable;
  /** For sharp: a file path or the bytes themselves. */
  sharpInput(): string | Buffer;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Refuses anything but a lower-case UUID, the only form of an asset id that may name a file. */
export function assertAssetId(id: string): string {
  if (!UUID.test(id)) throw new Error(`asset file id must be a lower-case UUID (received: ${JSON.stringify(id)})`);
  return id;
}
