// `node scripts/traceability.ts` writes docs/traceability.md; `--check` exits 1 when it is stale
// (both run by `npm run generate` and `npm run generate:check`).
//
// For each requirement of spec/requirements.yaml: the spec operations whose contract names it
// (`x-requirements` anywhere in the operation, its parameters, bodies and responses), the files
// that implement it (`@implements ID` comments in reference-impl/ and client/), the conformance
// checks that declare it and, where no check does, the test files whose test names carry `[ID]`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { indexOperations, loadSpec, SPEC_FILES } from '../spec/index.ts';
import { CHECKS_DIR, loadChecks } from '../conformance/engine/plan/loadChecks.ts';
import { repoRoot } from './lib/run.ts';

export const TRACEABILITY_FILE = 'docs/traceability.md';
const IMPLEMENTING_ROOTS = ['reference-impl', 'client'];
const TEST_ROOTS = ['reference-impl', 'client', 'conformance', 'mock', 'scripts', 'tests'];
const IMPLEMENTS = /@implements\s+((?:(?:DEC-)?[A-Z]+-\d{3}(?:\s*,\s*)?)+)/g;

export interface Requirement {
  id: string;
  level: 'MUST' | 'SHOULD' | 'DECISION';
  subject: 'service' | 'client' | 'receiver';
  statement: string;
  verify?: 'blackbox' | 'needs-feed' | 'unobservable';
}

export interface Trace {
  requirement: Requirement;
  operations: string[];
  implementedIn: string[];
  checks: string[];
  tests: string[];
}

export interface Traceability {
  traces: Trace[];
  /** `@implements` ids that are not in the catalogue, with their file. */
  unknownIds: string[];
}

function sourceFiles(root: string): string[] {
  return fs
    .readdirSync(path.join(repoRoot, root), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.parentPath.includes('node_modules'))
    .map((e) => path.relative(repoRoot, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

const isTestFile = (file: string) => file.endsWith('.test.ts');

/** Every `x-requirements` id inside a (dereferenced) node. */
function requirementIds(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const child of node) requirementIds(child, into);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'x-requirements' && Array.isArray(value)) for (const id of value) into.add(String(id));
      else requirementIds(value, into);
    }
  }
  return into;
}

function operationsById(spec: Record<string, any>): Map<string, string[]> {
  const byId = new Map<string, string[]>();
  const add = (label: string, operation: unknown) => {
    for (const id of requirementIds(operation, new Set())) byId.set(id, [...(byId.get(id) ?? []), label]);
  };
  for (const op of indexOperations(spec).values())
    add(op.operationId, { ...op.operation, shared: op.pathItem.parameters });
  for (const [name, item] of Object.entries<Record<string, any>>(spec.webhooks ?? {}))
    for (const operation of Object.values(item)) add(`webhook ${name}`, operation);
  return byId;
}

function collect(files: string[], find: (text: string) => Iterable<string>): Map<string, string[]> {
  const byId = new Map<string, string[]>();
  for (const file of files) {
    const text = fs.readFileSync(path.join(repoRoot, file), 'utf8');
    for (const id of new Set(find(text))) byId.set(id, [...(byId.get(id) ?? []), file]);
  }
  return byId;
}

export async function traceability(): Promise<Traceability> {
  const requirements = (
    YAML.parse(fs.readFileSync(path.join(repoRoot, 'spec/requirements.yaml'), 'utf8')) as {
      requirements: Requirement[];
    }
  ).requirements;
  const spec = loadSpec(SPEC_FILES.dereferenced).document;
  const operations = operationsById(spec);

  const implementing = IMPLEMENTING_ROOTS.flatMap(sourceFiles).filter((f) => !isTestFile(f));
  const implementedIn = collect(implementing, function* (text) {
    for (const match of text.matchAll(IMPLEMENTS)) yield* match[1]!.split(/\s*,\s*/).filter(Boolean);
  });

  const checks = new Map<string, string[]>();
  for (const check of await loadChecks(fileURLToPath(CHECKS_DIR)))
    for (const id of check.requirements) checks.set(id, [...(checks.get(id) ?? []), check.id]);

  const known = new Set(requirements.map((r) => r.id));
  const tests = collect(TEST_ROOTS.flatMap(sourceFiles).filter(isTestFile), function* (text) {
    for (const match of text.matchAll(/\[((?:DEC-)?[A-Z]+-\d{3})\]/g)) if (known.has(match[1]!)) yield match[1]!;
  });

  const unknownIds = [...implementedIn]
    .filter(([id]) => !known.has(id))
    .flatMap(([id, files]) => files.map((f) => `${id} in ${f}`));
  return {
    traces: requirements.map((requirement) => ({
      requirement,
      operations: operations.get(requirement.id) ?? [],
      implementedIn: implementedIn.get(requirement.id) ?? [],
      checks: (checks.get(requirement.id) ?? []).sort(),
      tests: tests.get(requirement.id) ?? [],
    })),
    unknownIds,
  };
}

const cell = (values: string[], code = true) =>
  values.length === 0 ? '—' : values.map((v) => (code ? `\`${v}\`` : v)).join(', ');

export function renderTraceability({ traces }: Traceability): string {
  const rows = traces.map(
    ({ requirement: r, operations, implementedIn, checks, tests }) =>
      `| ${r.id} | ${r.level} | ${r.subject}${r.verify && r.verify !== 'blackbox' ? ` (${r.verify})` : ''} | ${cell(operations)} | ${cell(implementedIn)} | ${cell(checks)} | ${checks.length > 0 ? '' : cell(tests)} |`,
  );
  return `<!-- GENERATED FILE, do not edit. Rebuilt by \`npm run generate\` (scripts/traceability.ts); \`npm run generate:check\` fails when it is stale. -->
# Traceability

Each requirement of \`spec/requirements.yaml\`: the spec operations that carry it (\`x-requirements\`
on the operation or anything it uses), the files that implement it (\`@implements ID\` comments),
the conformance checks that declare it, and, where no check does, the test files whose test names
carry \`[ID]\`.
\`tests/contract/traceability.test.ts\` fails when a MUST has no implementing file or is verified
by neither a check nor a test.

| Requirement | Level | Subject | Operations | Implemented in | Conformance checks | Tests (when no check) |
|---|---|---|---|---|---|---|
${rows.join('\n')}
`;
}

async function main(): Promise<void> {
  const text = renderTraceability(await traceability());
  const target = path.join(repoRoot, TRACEABILITY_FILE);
  if (!process.argv.includes('--check')) {
    fs.writeFileSync(target, text);
    console.log(`${TRACEABILITY_FILE} rebuilt.`);
    return;
  }
  if (!fs.existsSync(target) || fs.readFileSync(target, 'utf8') !== text) {
    console.error(`${TRACEABILITY_FILE} is stale; run \`npm run generate\` and commit the result.`);
    process.exitCode = 1;
    return;
  }
  console.log(`${TRACEABILITY_FILE} is up to date.`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
