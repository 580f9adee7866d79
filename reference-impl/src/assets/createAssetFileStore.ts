import { createDiskFileStore } from './diskFileStore.ts';
import type { AssetFileStore } from './fileStore.ts';
import { createMemoryFileStore } from './memoryFileStore.ts';

/** Files under `<dataDir>/assets/`, or in memory when `dataDir` is `:memory:` (tests, demos). */
export function createAssetFileStore(dataDir: string): AssetFileStore {
  return dataDir === ':memory:'
    ? createMemoryFileStore()
    : createDiskFileStore({ directory: `${dataDir.replace(/\/+$/, '')}/assets` });
}
