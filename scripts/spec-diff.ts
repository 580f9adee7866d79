// `npm run spec:diff -- [ref]`: names every breaking change between the spec at a git ref and
// the spec in the working tree, and exits 1 when there is one.
//
//   npm run spec:diff                       base = the last commit on main that changed spec/
//   npm run spec:diff -- v1.0.0             base = spec/ at that ref
//   npm run spec:diff -- --base a.yaml --head b.yaml   compare two (bundled) files
//
// Both sides are bundled with `redocly bundle` first. Two independent differs judge them:
// `redocly diff` with redocly.diff.yaml (diff-recommended; rates each change major/minor/patch)
// and api-smart-diff (classifies each change breaking/non-breaking). A change either calls
// breaking is reported, under the differ's rule name, and fails the run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiCompare } from 'api-smart-diff';
import YAML from 'yaml';
import { bins, mustRun, repoRoot, runNodeScript } from './lib/run.ts';

const SPEC_DIR = 'spec';
const SPEC_ROOT = 'spec/openapi.yaml';

export type BreakingChange = {
  /** Which differ found it. */
  tool: 'redocly diff' | 'api-smart-diff';
  /** The differ's name for the kind of change, e.g. `path-removed`, `remove`. */
  rule: string;
  /** Where in the document (JSON pointer). */
  pointer: string;
  message: string;
};

type RedoclyDiffReport = {
  changes?: Array<{
    path: string;
    impact: string;
    verdicts?: Array<{ ruleId: string; impact: string; message: string; location?: { pointer?: string } }>;
  }>;
};

function git(args: readonly string[]): string {
  return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

/** The default base: the last commit on main that changed spec/ (falls back to HEAD's history). */
export function defaultBaseRef(): string {
  for (const branch of ['main', 'origin/main', 'HEAD']) {
    try {
      const sha = git(['log', '-1', '--format=%H', branch, '--', SPEC_DIR]).trim();
      if (sha) return sha;
    } catch {
      // branch does not exist here; try the next
    }
  }
  throw new Error('no commit changed spec/ yet: pass a ref or --base/--head');
}

/** Writes spec/ as it is at `ref` into `dir` and returns the path of its root document. */
function checkoutSpec(ref: string, dir: string): string {
  const files = git(['ls-tree', '-r', '--name-only', ref, '--', SPEC_DIR]).split('\n').filter(Boolean);
  if (!files.includes(SPEC_ROOT)) throw new Error(`${ref} has no ${SPEC_ROOT}`);
  for (const file of files) {
    const target = path.join(dir, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(
      target,
      execFileSync('git', ['show', `${ref}:${file}`], { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024 }),
    );
  }
  return path.join(dir, SPEC_ROOT);
}

/** Bundles a (multi-file) description into one YAML file; run outside the repo so no config applies. */
async function bundle(root: string, output: string): Promise<void> {
  await mustRun(bins.redocly, ['bundle', root, '--output', output], { cwd: path.dirname(output) });
}

function pointerOf(segments: ReadonlyArray<string | number>): string {
  return `#/${segments.map((s) => String(s).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
}

export async function redoclyBreaking(basePath: string, headPath: string): Promise<BreakingChange[]> {
  const result = await runNodeScript(bins.redocly, [
    'diff',
    basePath,
    headPath,
    '--config',
    path.join(repoRoot, 'redocly.diff.yaml'),
    '--format',
    'json',
    '--fail-on',
    'none',
  ]);
  const start = result.stdout.indexOf('{');
  if (result.code !== 0 || start < 0)
    throw new Error(`redocly diff failed (exit ${result.code})\n${result.stdout}\n${result.stderr}`);
  const report = JSON.parse(result.stdout.slice(start)) as RedoclyDiffReport;
  const found: BreakingChange[] = [];
  for (const change of report.changes ?? []) {
    for (const verdict of change.verdicts ?? []) {
      if (verdict.impact !== 'major') continue;
      found.push({
        tool: 'redocly diff',
        rule: verdict.ruleId,
        pointer: verdict.location?.pointer ?? change.path,
        message: verdict.message,
      });
    }
  }
  return found;
}

export function smartDiffBreaking(base: unknown, head: unknown): BreakingChange[] {
  const { diffs } = apiCompare(base as object, head as object);
  return (
    diffs
      // A change inside components is reported again at each place that uses it; keep those.
      .filter((d) => d.type === 'breaking' && d.path[0] !== 'components')
      .map((d) => ({
        tool: 'api-smart-diff' as const,
        rule: `${d.action}`,
        pointer: pointerOf(d.path),
        message: d.description ?? `${d.action} at ${pointerOf(d.path)}`,
      }))
  );
}

/** Compares two bundled (single-file) descriptions with both differs. */
export async function breakingChanges(basePath: string, headPath: string): Promise<BreakingChange[]> {
  const base: unknown = YAML.parse(fs.readFileSync(basePath, 'utf8'));
  const head: unknown = YAML.parse(fs.readFileSync(headPath, 'utf8'));
  return [...(await redoclyBreaking(basePath, headPath)), ...smartDiffBreaking(base, head)];
}

export function formatReport(changes: readonly BreakingChange[], baseLabel: string, headLabel: string): string {
  if (changes.length === 0) return `No breaking changes between ${baseLabel} and ${headLabel}.`;
  const lines = [`${changes.length} breaking change(s) between ${baseLabel} and ${headLabel}:`];
  for (const tool of ['redocly diff', 'api-smart-diff'] as const) {
    const mine = changes.filter((c) => c.tool === tool);
    if (mine.length === 0) continue;
    lines.push('', `${tool}:`);
    for (const c of mine) lines.push(`  - [${c.rule}] ${c.message}  (${c.pointer})`);
  }
  return lines.join('\n');
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const value = args[i + 1];
  if (!value) throw new Error(`${name} needs a value`);
  args.splice(i, 2);
  return value;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const baseFile = option(args, '--base');
  const headFile = option(args, '--head');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-spec-diff-'));
  try {
    let basePath: string;
    let baseLabel: string;
    if (baseFile) {
      basePath = path.join(work, 'base.yaml');
      await bundle(path.resolve(baseFile), basePath);
      baseLabel = baseFile;
    } else {
      const ref = args[0] ?? defaultBaseRef();
      const short = git(['rev-parse', '--short', ref]).trim();
      const root = checkoutSpec(ref, path.join(work, 'base'));
      basePath = path.join(work, 'base.yaml');
      await bundle(root, basePath);
      const name = args[0]
        ? args[0] === short
          ? short
          : `${args[0]} (${short})`
        : `${short} (last commit on main that changed spec/)`;
      baseLabel = `${name}:${SPEC_ROOT}`;
    }
    const headPath = path.join(work, 'head.yaml');
    await bundle(path.resolve(headFile ?? path.join(repoRoot, SPEC_ROOT)), headPath);
    const headLabel = headFile ?? `working tree ${SPEC_ROOT}`;

    const changes = await breakingChanges(basePath, headPath);
    const report = formatReport(changes, baseLabel, headLabel);
    if (changes.length > 0) {
      console.error(report);
      process.exitCode = 1;
    } else {
      console.log(report);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 2;
  });
}
