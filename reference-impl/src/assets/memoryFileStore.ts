import { Readable } from 'node:stream';
import { assertAssetId, type AssetFileStore } from './fileStore.ts';

/** Asset bytes in a Map, for DATA_DIR=:memory:; gone with the process, like the in-memory database. */
export function createMemoryFileStore(): AssetFileStore {
  const files = new Map<string, Buffer>();
  return {
    stage() {
      let chunks: Buffer[] = [];
      let discarded = false;
      return {
        async write(chunk) {
          if (discarded) throw new Error('staged upload was discarded');
          chunks.push(chunk);
        },
        async commit(id) {
          if (discarded) throw new Error('staged upload was discarded');
          files.set(assertAssetId(id), Buffer.concat(chunks));
          chunks = [];
        },
        async discard() {
          discarded = true;
          chunks = [];
        },
      };
    },
    // Staged bytes live in the upload's own closure and go with it: nothing is ever left behind.
    async pruneStaged() {
      return 0;
    },
    async open(id) {
      const bytes = files.get(assertAssetId(id));
      if (bytes === undefined) return undefined;
      return { size: bytes.length, stream: () => Readable.from([bytes]), sharpInput: () => bytes };
    },
    async remove(id) {
      files.delete(assertAssetId(id));
    },
    async count() {
      return files.size;
    },
  };
}
