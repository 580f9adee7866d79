// `npm run generate`: rebuilds everything in generated/ from spec/openapi.yaml.
// `npm run generate:check`: rebuilds into a temporary folder and exits 1, naming each file,
// when generated/ differs from what the spec produces.
//
// Outputs (each starts with a banner naming this command):
//   openapi.yaml               bundled spec (redocly bundle): one file, components with $ref,
//                              without the `x-interface` relaxations (see publishable())
//   openapi.json               the same document as JSON, with a top-level `x-generated` note
//   openapi.interface.json     the interface-only layer: the bundle with every `x-interface`
//                              relaxation applied (scripts/lib/interfaceLayer.ts)
//   openapi.dereferenced.json  every $ref inlined (except the back-reference of a recursive
//                              schema), for tools with weak $ref support
//   types.ts                   openapi-typescript 7.13 types for openapi-fetch
//   constants.ts               the contract's values (collections, statuses, size, ...) as code
//   README.md                  what these files are and how they are made
//
// Output is deterministic: key order follows the source files, there are no timestamps or
// absolute paths, and JSON is printed with two-space indentation and a final newline.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { refTarget } from '../spec/index.ts';
import { constantsModule } from './lib/constants.ts';
import { interfaceLayer } from './lib/interfaceLayer.ts';
import { bins, mustRun, repoRoot } from './lib/run.ts';

const SPEC_ROOT = 'spec/openapi.yaml';
const TYPEGEN_CONFIG = 'redocly.typegen.yaml';
const REBUILD = 'npm run generate';
const NOTE = `GENERATED FILE, do not edit. Rebuilt from ${SPEC_ROOT} by \`${REBUILD}\` (scripts/generate.ts); \`npm run generate:check\` fails when it is stale.`;

/** openapi-typescript flags. No --enum: TypeScript enums are not erasable syntax. */
export const TYPEGEN_FLAGS = [
  '--root-types',
  '--root-types-no-schema-prefix',
  '--alphabetize',
  '--read-write-markers',
] as const;

export const GENERATED_FILES = [
  'README.md',
  'openapi.yaml',
  'openapi.json',
  'openapi.interface.json',
  'openapi.dereferenced.json',
  'types.ts',
  'constants.ts',
] as const;

function json(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** Puts the `x-generated` note first, so the JSON files open with their banner. */
function withNote(document: Record<string, unknown>): Record<string, unknown> {
  return { 'x-generated': NOTE, ...document };
}

const readme = `<!-- ${NOTE} -->
# generated/

Everything here is written by \`${REBUILD}\` from \`${SPEC_ROOT}\` and checked by
\`npm run generate:check\` (part of \`npm test\`). Edit the spec, never these files.

| File | What | Made by |
|---|---|---|
| \`openapi.yaml\` | The bundled spec: one document, shared parts under \`components\` and referenced with \`$ref\`. Prism, the docs and the type generator read it. The \`x-interface\` relaxations of \`spec/\` are left out (they are merge patches, which strict OpenAPI validators reject); \`openapi.interface.json\` applies them. | \`redocly bundle\`, without \`x-interface\` |
| \`openapi.json\` | The same document as JSON, for code that loads it with \`import\` or \`JSON.parse\` (ajv validators). | \`redocly bundle\`, printed as JSON |
| \`openapi.interface.json\` | The interface-only layer: the bundle with every \`x-interface\` relaxation applied, so our decisions (\`x-decision\`) are relaxed to what the interface text allows. Relaxed nodes name the decisions in \`x-relaxed\`. The conformance suite validates responses against it and reports a mismatch with \`openapi.json\` as a DECISION deviation. | \`interfaceLayer()\` in scripts/lib/interfaceLayer.ts |
| \`openapi.dereferenced.json\` | Every \`$ref\` inlined, for tools with weak \`$ref\` support. Recursive schemas (sub-properties, ontology children) cannot be inlined: their back-references stay \`$ref\`s into \`components\`, which this file keeps. | \`redocly bundle\`, then \`dereference()\` in scripts/generate.ts |
| \`constants.ts\` | The contract's values as code: collections and their entity types, entity types, workflow statuses (as lists and by name), the \`size\` bounds and default, the \`x-rate-limited\` operations, the webhook header names and timestamp tolerance. Import them instead of typing the values again. | \`readConstants()\` in scripts/lib/constants.ts |
| \`types.ts\` | TypeScript types (\`paths\`, \`webhooks\`, \`components\`, \`operations\` and one root type per schema) for \`openapi-fetch\`. | \`openapi-typescript\` ${TYPEGEN_FLAGS.join(' ')} |

\`types.ts\` is made with \`--read-write-markers\`: \`readOnly\` fields are wrapped in \`$Read<…>\`, so
openapi-fetch 0.17 refuses them in request bodies and keeps them in responses
(\`scripts/typegen.typecheck.ts\` proves it at compile time). A root type such as \`Event\` carries the
markers: write \`Readable<Event>\` for what a response holds and \`Writable<EventDraft>\` for what a
request may send. There is no \`--enum\`: TypeScript enums are not erasable syntax; enums are unions.

Banners: the YAML and TypeScript files start with a comment naming the command. JSON cannot hold
comments, so the JSON files carry the same note as their first key, \`x-generated\` (an OpenAPI
specification extension that every tool ignores); this README is the human-readable version.

\`spec/requirements.yaml\` is not copied here: the conformance suite and the contract tests read it
from \`spec/\` directly.
`;

/**
 * The bundle as published: every `x-interface` removed. A relaxation is a JSON Merge Patch, whose
 * `$ref: null` (remove the reference) strict OpenAPI validators try to resolve, and whose partial
 * schemas (`type: [array, object]`) linters check as schemas; the relaxations are applied in
 * openapi.interface.json, which marks each relaxed node with `x-relaxed`. Edits the YAML text's
 * own tree, so the rest of the bundle prints exactly as redocly wrote it.
 */
export function publishable(bundledText: string): string {
  const doc = YAML.parseDocument(bundledText);
  YAML.visit(doc, {
    Pair: (_key, pair) => (YAML.isScalar(pair.key) && pair.key.value === 'x-interface' ? YAML.visit.REMOVE : undefined),
  });
  return doc.toString({ lineWidth: 0 });
}

/** `redocly bundle` of spec/openapi.yaml, as text, with the `x-interface` relaxations still in it. */
export async function bundleSource(): Promise<string> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-bundle-'));
  try {
    const out = path.join(work, 'openapi.yaml');
    await mustRun(bins.redocly, ['bundle', path.join(repoRoot, SPEC_ROOT), '--output', out]);
    return fs.readFileSync(out, 'utf8');
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Inlines every local `$ref` of the bundled document. `redocly bundle --dereferenced` cannot
 * print JSON when a schema is recursive (a property's sub-properties, an ontology node's
 * children), so this keeps exactly those back-references as `$ref`s into `components`, which
 * stay in the document (themselves dereferenced). Siblings of a `$ref` (summary, description)
 * override the inlined target's, as OpenAPI 3.1 says.
 */
export function dereference(document: Record<string, unknown>): Record<string, unknown> {
  const root = document as { [key: string]: Json };
  const visit = (node: Json, stack: readonly string[]): Json => {
    if (Array.isArray(node)) return node.map((child) => visit(child, stack));
    if (!node || typeof node !== 'object') return node;
    const ref = node.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/')) {
      const { $ref: _ignored, ...siblings } = node;
      if (stack.includes(ref)) return { ...node };
      const target = visit(refTarget(root, node) as Json, [...stack, ref]);
      if (Object.keys(siblings).length === 0) return target;
      const extra = visit(siblings, stack) as { [key: string]: Json };
      return target && typeof target === 'object' && !Array.isArray(target) ? { ...target, ...extra } : target;
    }
    const out: { [key: string]: Json } = {};
    for (const [key, child] of Object.entries(node)) out[key] = visit(child, stack);
    return out;
  };
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(root)) {
    if (key !== 'components' || !value || typeof value !== 'object' || Array.isArray(value)) {
      out[key] = visit(value, []);
      continue;
    }
    const components: { [key: string]: Json } = {};
    for (const [kind, map] of Object.entries(value)) {
      const entries: { [key: string]: Json } = {};
      for (const [name, component] of Object.entries((map ?? {}) as { [key: string]: Json })) {
        entries[name] = visit(component, [`#/components/${kind}/${name}`]);
      }
      components[kind] = entries;
    }
    out[key] = components;
  }
  return out;
}

/** Writes every generated file into `outDir` and returns their names. */
export async function generate(outDir: string): Promise<string[]> {
  fs.mkdirSync(outDir, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-generate-'));
  try {
    const source = await bundleSource();
    const bundledText = publishable(source);
    const bundledYaml = path.join(work, 'openapi.yaml');
    fs.writeFileSync(bundledYaml, bundledText);
    const bundled = YAML.parse(bundledText) as Record<string, unknown>;
    fs.writeFileSync(
      path.join(outDir, 'openapi.yaml'),
      `# ${NOTE}\n${bundledText.endsWith('\n') ? bundledText : `${bundledText}\n`}`,
    );
    fs.writeFileSync(path.join(outDir, 'openapi.json'), json(withNote(bundled)));
    const layer = interfaceLayer(YAML.parse(source) as Record<string, unknown>);
    fs.writeFileSync(path.join(outDir, 'openapi.interface.json'), json(withNote(layer)));
    const dereferenced = dereference(bundled);
    fs.writeFileSync(path.join(outDir, 'openapi.dereferenced.json'), json(withNote(dereferenced)));
    fs.writeFileSync(path.join(outDir, 'constants.ts'), `// ${NOTE}\n${constantsModule(dereferenced)}`);

    // openapi-typescript lints with its own (older) Redocly first; it gets a minimal config.
    const typesTmp = path.join(work, 'types.ts');
    await mustRun(bins.openapiTypescript, [
      bundledYaml,
      '--redocly',
      TYPEGEN_CONFIG,
      '--output',
      typesTmp,
      ...TYPEGEN_FLAGS,
    ]);
    const types = fs.readFileSync(typesTmp, 'utf8');
    fs.writeFileSync(path.join(outDir, 'types.ts'), `// ${NOTE}\n${types}`);

    fs.writeFileSync(path.join(outDir, 'README.md'), readme);
    return [...GENERATED_FILES];
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Names of the files that differ between two generated folders (missing or extra included). */
export function differingFiles(expectedDir: string, actualDir: string): string[] {
  const names = new Set<string>([...GENERATED_FILES]);
  if (fs.existsSync(actualDir)) for (const name of fs.readdirSync(actualDir)) names.add(name);
  const differ: string[] = [];
  for (const name of [...names].sort()) {
    const expected = path.join(expectedDir, name);
    const actual = path.join(actualDir, name);
    if (!fs.existsSync(expected)) differ.push(`${name} (not produced by the generator: remove it)`);
    else if (!fs.existsSync(actual)) differ.push(`${name} (missing)`);
    else if (!fs.readFileSync(expected).equals(fs.readFileSync(actual))) differ.push(`${name} (out of date)`);
  }
  return differ;
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const target = path.join(repoRoot, 'generated');
  if (!check) {
    const started = performance.now();
    const files = await generate(target);
    console.log(
      `generated/ rebuilt from ${SPEC_ROOT} in ${Math.round(performance.now() - started)} ms: ${files.join(', ')}`,
    );
    return;
  }
  const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-generate-check-'));
  try {
    await generate(fresh);
    const differ = differingFiles(fresh, target);
    if (differ.length > 0) {
      console.error(`generated/ is stale; run \`${REBUILD}\` and commit the result. Files that differ:`);
      for (const line of differ) console.error(`  - generated/${line}`);
      process.exitCode = 1;
      return;
    }
    console.log(`generated/ is up to date with ${SPEC_ROOT}.`);
  } finally {
    fs.rmSync(fresh, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.chdir(repoRoot);
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
