#!/usr/bin/env node
// `npx content-conformance`: runs conformance/cli.ts. That file is TypeScript, which Node runs
// directly only from 22.18 / 23.6 on (type stripping); on an older Node, re-run this shim with
// the Node the package pins (node_modules/.bin/node, from the `node` devDependency).

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const packageRoot = join(here, '..');

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
  const { main } = await import(new URL('../conformance/cli.ts', import.meta.url).href);
  process.exitCode = await main(process.argv.slice(2));
} else if (process.env.CONTENT_CONFORMANCE_REEXEC) {
  console.error(`content-conformance: Node ${process.versions.node} cannot run TypeScript and the pinned Node did not help; use Node >= 22.18.`);
  process.exitCode = 2;
} else {
  const node = pinnedNode();
  if (!node) {
    console.error(`content-conformance: Node ${process.versions.node} cannot run TypeScript sources; install Node >= 22.18 or run \`npm install\` in ${packageRoot}.`);
    process.exitCode = 2;
  } else {
    const child = spawnSync(node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
      stdio: 'inherit',
      env: { ...process.env, CONTENT_CONFORMANCE_REEXEC: '1' },
    });
    process.exitCode = child.status ?? 2;
  }
}
