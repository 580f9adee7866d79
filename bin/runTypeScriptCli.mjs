// Shared by the `bin/` launchers: run a TypeScript CLI entry (a module exporting
// `main(argv): Promise<number>`). Node runs TypeScript directly only from 22.18 / 23.6 on (type
// stripping); on an older Node, re-run the launcher with the Node the package pins
// (node_modules/.bin/node, from the `node` devDependency) and exit as that child exits.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import module from 'node:module';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

function canStripTypes() {
  if (process.features && process.features.typescript) return true;
  const [major, minor] = process.versions.node.split('.').map(Number);
  return major > 23 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18);
}

function pinnedNode() {
  const name = process.platform === 'win32' ? 'node.cmd' : 'node';
  // The package's own node_modules, then those of the project that installed it.
  for (let dir = packageRoot; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', '.bin', name);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * @param {{ name: string, entry: URL, launcher: string }} options `name` prefixes messages and
 *   names the re-exec guard variable (`content-sync` → CONTENT_SYNC_REEXEC); `entry` is the
 *   TypeScript module; `launcher` is the calling shim's `import.meta.url`, re-run on an old Node.
 */
export async function runTypeScriptCli({ name, entry, launcher }) {
  const reexec = `${name.toUpperCase().replaceAll('-', '_')}_REEXEC`;
  if (canStripTypes()) {
    // Compiled modules (types stripped) are kept in Node's cache directory: later starts skip it.
    module.enableCompileCache?.();
    const { main } = await import(entry.href);
    process.exitCode = await main(process.argv.slice(2));
    return;
  }
  if (process.env[reexec]) {
    console.error(
      `${name}: Node ${process.versions.node} cannot run TypeScript and the pinned Node did not help; use Node >= 22.18.`,
    );
    process.exitCode = 2;
    return;
  }
  const node = pinnedNode();
  if (!node) {
    console.error(
      `${name}: Node ${process.versions.node} cannot run TypeScript sources; install Node >= 22.18 or run \`npm install\` in ${packageRoot}.`,
    );
    process.exitCode = 2;
    return;
  }
  // Forward Ctrl-C and SIGTERM, so that stopping the launcher stops the child (on a terminal the
  // child also gets Ctrl-C directly; it takes both as one interrupt).
  const child = spawn(node, [fileURLToPath(launcher), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, [reexec]: '1' },
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    console.error(`${name}: cannot start ${node}: ${error.message}`);
    process.exitCode = 2;
  });
  // The child's exit code is the launcher's; a child killed by signal n exits 128 + n, as a shell reports it.
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal && constants.signals[signal] ? 128 + constants.signals[signal] : 2);
  });
}
