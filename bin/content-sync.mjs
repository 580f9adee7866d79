#!/usr/bin/env node
// `npx content-sync`: runs client/cli.ts. That file is TypeScript, which Node runs directly only
// from 22.18 / 23.6 on (type stripping); on an older Node, re-run this shim with the Node the
// package pins (node_modules/.bin/node, from the `node` devDependency).

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const REEXEC = 'CONTENT_SYNC_REEXEC';

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

if (canStripTypes()) {
  const { main } = await import(new URL('../client/cli.ts', import.meta.url).href);
  process.exitCode = await main(process.argv.slice(2));
} else if (process.env[REEXEC]) {
  console.error(`content-sync: Node ${process.versions.node} cannot run TypeScript and the pinned Node did not help; use Node >= 22.18.`);
  process.exitCode = 2;
} else {
  const node = pinnedNode();
  if (!node) {
    console.error(`content-sync: Node ${process.versions.node} cannot run TypeScript sources; install Node >= 22.18 or run \`npm install\` in ${packageRoot}.`);
    process.exitCode = 2;
  } else {
    // Forward Ctrl-C and SIGTERM, so that stopping this shim stops the sync gracefully (on a
    // terminal the child also gets Ctrl-C directly; it takes both as one interrupt).
    const child = spawn(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, [REEXEC]: '1' } });
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
    child.on('exit', (code, signal) => {
      process.exitCode = code ?? (signal === 'SIGINT' ? 130 : 2);
    });
  }
}
