import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { assertAssetId, type AssetFileStore } from './fileStore.ts';

/**
 * Asset bytes as files: `<directory>/<first two hex digits of the id>/<id>`. Uploads stream into
 * `<directory>/.staging/` and are renamed into place only when accepted, so a rejected or broken
 * upload never appears as an asset file (the rename is atomic within one file system).
 */
export function createDiskFileStore(options: { directory: string }): AssetFileStore {
  const root = options.directory;
  const staging = join(root, '.staging');
  const pathOf = (id: string) => join(root, assertAssetId(id).slice(0, 2), id);

  return {
    stage() {
      const path = join(staging, `${randomUUID()}.part`);
      let handle: Promise<FileHandle> | undefined;
      let discarded = false;
      const opened = () => {
        // After discard nothing may recreate the file (a write could still be on its way).
        if (discarded) return Promise.reject(new Error('staged upload was discarded'));
        handle ??= mkdir(staging, { recursive: true }).then(() => open(path, 'wx', 0o600));
        return handle;
      };
      const close = async () => {
        if (handle === undefined) return;
        const current = handle;
        handle = undefined;
        await (await current).close().catch(() => {});
      };
      return {
        async write(chunk) {
          await (await opened()).write(chunk);
        },
        async commit(id) {
          await opened(); // an empty upload still gets its (empty) file
          await close();
          const target = pathOf(id);
          await mkdir(join(target, '..'), { recursive: true });
          await rename(path, target);
        },
        async discard() {
          discarded = true;
          await close();
          await rm(path, { force: true });
        },
      };
    },
    async open(id) {
      const path = pathOf(id);
      const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      if (info === undefined) return undefined;
      return { size: info.size, stream: () => createReadStream(path), sharpInput: () => path };
    },
    async remove(id) {
      await rm(pathOf(id), { force: true });
    },
    async pruneStaged(before) {
      const names = await readdir(staging).catch(() => [] as string[]);
      let removed = 0;
      for (const name of names) {
        if (!name.endsWith('.part')) continue;
        const path = join(staging, name);
        const info = await stat(path).catch(() => undefined);
        if (info === undefined || !info.isFile() || info.mtimeMs >= before.getTime()) continue;
        await rm(path, { force: true });
        removed++;
      }
      return removed;
    },
    async count() {
      let total = 0;
      const shards = await readdir(root, { withFileTypes: true }).catch(() => []);
      for (const shard of shards) {
        if (shard.isDirectory() && /^[0-9a-f]{2}$/.test(shard.name))
          total += (await readdir(join(root, shard.name))).length;
      }
      return total;
    },
  };
}
