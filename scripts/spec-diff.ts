// `npm run spec:diff -- [ref]`: names every breaking change between the spec at a git ref and
// the spec in the working tree. Exit 0: none; 1: at least one; 2: the comparison could not be
// made or would be incomplete (a ref without the spec, a bundle that fails, a differ's rule that
// crashed), with the reason on stderr.
//
//   npm run spec:diff                       base = the last commit on main that changed spec/
//   npm run spec:diff -- v1.0.0             base = spec/ at that ref
//   npm run spec:diff -- --base a.yaml --head b.yaml   compare two (bundled) files
//
// Both sides are bundled with `redocly bundle` first. Two independent differs judge them:
// `redocly diff` with redocly.diff.yaml (diff-recommended; rates each change major/minor/patch)
// and api-smart-diff (classifies each change breaking/non-breaking). A change either calls
// breaking is reported once, at the place in the spec where it was made (a shared schema, not
// each operation that uses it), under every rule that flagged it, and fails the run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiCompare } from 'api-smart-diff';
import YAML from 'yaml';
import { escapePointer, resolveLocal } from '../spec/index.ts';
import { bins, mustRun, repoRoot, runNodeScript } from './lib/run.ts';

const SPEC_DIR = 'spec';
const SPEC_ROOT = 'spec/openapi.yaml';

export type Tool = 'redocly diff' | 'api-smart-diff';

/** One differ's verdict on one change. */
export type Finding = {
  tool: Tool;
  /** The differ's name for the kind of change, e.g. `path-removed`, `remove`. */
  rule: string;
  /** Where in the document (a `$ref`-style JSON pointer, `#/…`). */
  pointer: string;
  message: string;
};

/** One breaking change as reported: where it was made and every verdict that calls it breaking. */
export type BreakingChange = {
  pointer: string;
  message: string;
  findings: Finding[];
};

/** The comparison could not be made, or a differ could not judge every change: exit 2. */
export class SpecDiffError extends Error {}

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
  if (!files.includes(SPEC_ROOT)) throw new SpecDiffError(`${ref} has no ${SPEC_ROOT}`);
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
  return `#${segments.map((s) => `/${escapePointer(s)}`).join('')}`;
}

export async function redoclyBreaking(basePath: string, headPath: string): Promise<Finding[]> {
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
    throw new SpecDiffError(`redocly diff failed (exit ${result.code})\n${result.stdout}\n${result.stderr}`);
  const report = JSON.parse(result.stdout.slice(start)) as RedoclyDiffReport;
  const found: Finding[] = [];
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

/**
 * Where a change that api-smart-diff reports at a path of the document (`$ref`s inlined) was made:
 * the path walked through the document, restarted at each `$ref` it meets, so a change inside a
 * shared schema is located in that schema. Past the last node the document has (api-smart-diff
 * merges `allOf`), the rest of the path is kept as it is.
 */
export function originOf(document: unknown, segments: ReadonlyArray<string | number>): string {
  let node: unknown = document;
  let at = '';
  for (const segment of segments) {
    if (node !== undefined) {
      const resolved = resolveLocal(document, node, at);
      node = resolved.value;
      at = resolved.pointer;
    }
    at += `/${escapePointer(segment)}`;
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[String(segment)] : undefined;
  }
  return `#${at}`;
}

/**
 * api-smart-diff 1.0.6 crashes in its required-item rule when a schema requires a name it does not
 * list under its own `properties` (an `allOf` branch requiring a field its sibling defines, which
 * the spec does throughout). Listing each such name with an empty schema means the same to JSON
 * Schema and lets the rule judge the change; both sides get the same treatment.
 */
export function listRequiredProperties<T>(document: T): T {
  const copy = structuredClone(document);
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    const schema = node as { required?: unknown; properties?: unknown };
    if (Array.isArray(schema.required) && schema.required.every((name) => typeof name === 'string')) {
      const properties = (
        schema.properties !== null && typeof schema.properties === 'object' ? schema.properties : {}
      ) as Record<string, unknown>;
      for (const name of schema.required as string[]) if (!(name in properties)) properties[name] = {};
      schema.properties = properties;
    }
    Object.values(node).forEach(visit);
  };
  visit(copy);
  return copy;
}

/**
 * Every `$ref` to `components/responses` replaced by the response itself. api-smart-diff knows a
 * response schema by its path (`paths/…/responses/<status>/content/…`) and judges a schema it
 * reached through such a reference with its request rules, the reverse of right.
 */
export function inlineResponses<T>(document: T): T {
  const copy = structuredClone(document) as { paths?: Record<string, Record<string, unknown>> };
  for (const item of Object.values(copy.paths ?? {}))
    for (const operation of Object.values(item ?? {})) {
      const responses = (operation as { responses?: Record<string, unknown> } | null)?.responses;
      if (!responses || typeof responses !== 'object') continue;
      for (const [status, response] of Object.entries(responses))
        responses[status] = structuredClone(resolveLocal(copy, response).value);
    }
  return copy as T;
}

const RULE_ERROR = /^Classification Rule error for node: (.*?)\. (.*)$/s;

type SmartDiff = ReturnType<typeof apiCompare>['diffs'][number];

/**
 * api-smart-diff's classified changes of two documents as given. The library catches a rule that
 * throws, prints `Classification Rule error …` and leaves the change unjudged; those messages are
 * taken here and turned into a SpecDiffError naming each node, because a verdict with unjudged
 * changes cannot say "no breaking changes".
 */
export function smartDiff(base: object, head: object): SmartDiff[] {
  const crashes: string[] = [];
  const print = console.error;
  console.error = (...args: unknown[]) => {
    const text = args.map(String).join(' ');
    if (RULE_ERROR.test(text)) crashes.push(text);
    else print(...args);
  };
  let diffs: SmartDiff[];
  try {
    ({ diffs } = apiCompare(base, head));
  } finally {
    console.error = print;
  }
  if (crashes.length > 0) {
    const nodes = [...new Set(crashes)].map((text) => {
      const [, node, reason] = RULE_ERROR.exec(text)!;
      return `  - ${node!.replace(/\.$/, '')}: ${reason}`;
    });
    throw new SpecDiffError(
      `api-smart-diff could not classify ${nodes.length} change(s): a classification rule crashed at\n${nodes.join('\n')}\nThe comparison is incomplete, so no verdict is given.`,
    );
  }
  return diffs;
}

/** api-smart-diff's breaking verdicts on two bundled documents, one per change where it was made. */
export function smartDiffBreaking(base: unknown, head: unknown): Finding[] {
  const prepare = (document: unknown) => listRequiredProperties(inlineResponses(document)) as object;
  const found = new Map<string, Finding>();
  for (const d of smartDiff(prepare(base), prepare(head))) {
    // A change inside components is reported again at each place that uses it; those places
    // say whether it is a request or a response, which decides whether it breaks.
    if (d.type !== 'breaking' || d.path[0] === 'components') continue;
    const pointer = originOf(d.action === 'remove' ? base : head, d.path);
    const key = `${d.action} ${pointer}`;
    if (found.has(key)) continue;
    found.set(key, {
      tool: 'api-smart-diff',
      rule: `${d.action}`,
      pointer,
      message: d.description || `${d.action} at ${pointerOf(d.path)}`,
    });
  }
  return [...found.values()];
}

const within = (pointer: string, outer: string) => pointer === outer || pointer.startsWith(`${outer}/`);

/** Groups verdicts into changes: one per place, a verdict inside another's place joining it. */
export function mergeFindings(findings: readonly Finding[]): BreakingChange[] {
  const changes: BreakingChange[] = [];
  const ordered = [...findings].sort(
    (a, b) => a.pointer.length - b.pointer.length || (a.tool === 'redocly diff' ? -1 : 1),
  );
  for (const finding of ordered) {
    const change = changes.find((c) => within(finding.pointer, c.pointer));
    if (change) change.findings.push(finding);
    else changes.push({ pointer: finding.pointer, message: finding.message, findings: [finding] });
  }
  return changes.sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0));
}

/** Compares two bundled (single-file) descriptions with both differs. */
export async function breakingChanges(basePath: string, headPath: string): Promise<BreakingChange[]> {
  const base: unknown = YAML.parse(fs.readFileSync(basePath, 'utf8'));
  const head: unknown = YAML.parse(fs.readFileSync(headPath, 'utf8'));
  const smart = smartDiffBreaking(base, head);
  return mergeFindings([...(await redoclyBreaking(basePath, headPath)), ...smart]);
}

export function formatReport(changes: readonly BreakingChange[], baseLabel: string, headLabel: string): string {
  if (changes.length === 0) return `No breaking changes between ${baseLabel} and ${headLabel}.`;
  const lines = [`${changes.length} breaking change(s) between ${baseLabel} and ${headLabel}:`];
  for (const change of changes) {
    lines.push(`  - ${change.message}`, `      at ${change.pointer}`);
    for (const f of change.findings)
      lines.push(`      ${f.tool} [${f.rule}]${f.message === change.message ? '' : ` ${f.message}`}`);
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
