// `node scripts/lint-folder-cycles.ts` (part of `npm run lint`): fails on a folder cycle in the
// reference service that .dependency-cruiser-known-folder-cycles.json does not list. Each entry is
// "A → B": folder A imports from folder B, and B leads back to A. `--update` rewrites the list
// from what is found (to shrink it after a fix; never to accept a new cycle).
// dependency-cruiser finds the cycles (.dependency-cruiser.folders.cjs); its own --ignore-known
// does not apply to folder rules, hence this comparison.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './lib/run.ts';

const KNOWN_FILE = path.join(repoRoot, '.dependency-cruiser-known-folder-cycles.json');
const DEPCRUISE = path.join(repoRoot, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface FolderViolation {
  from: string;
  to: string;
  cycle?: Array<{ name: string }>;
}

function folderCycles(): FolderViolation[] {
  const args = [DEPCRUISE, '--config', '.dependency-cruiser.folders.cjs', '--output-type', 'json', 'reference-impl'];
  let stdout: string;
  try {
    stdout = execFileSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 256 << 20 });
  } catch (error) {
    // depcruise exits with the number of violations; its JSON is still on stdout.
    stdout = String((error as { stdout?: string }).stdout ?? '');
    if (!stdout.startsWith('{')) throw error;
  }
  const result = JSON.parse(stdout) as { summary: { violations: FolderViolation[] } };
  return result.summary.violations;
}

const pair = (v: FolderViolation) => `${v.from} → ${v.to}`;

const found = folderCycles();
if (process.argv.includes('--update')) {
  const pairs = [...new Set(found.map(pair))].sort();
  fs.writeFileSync(KNOWN_FILE, `${JSON.stringify(pairs, null, 2)}\n`);
  console.log(`${path.basename(KNOWN_FILE)}: ${pairs.length} known folder cycles.`);
} else {
  const known = new Set(fs.existsSync(KNOWN_FILE) ? (JSON.parse(fs.readFileSync(KNOWN_FILE, 'utf8')) as string[]) : []);
  const fresh = found.filter((v) => !known.has(pair(v)));
  for (const v of fresh)
    console.error(`new folder cycle: ${pair(v)} (back through ${(v.cycle ?? []).map((c) => c.name).join(' → ')})`);
  if (fresh.length > 0) process.exitCode = 1;
  else console.log(`no new folder cycles (${known.size} known).`);
}
