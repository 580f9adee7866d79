// `npm run docs`: builds the self-contained HTML reference docs/build/index.html (gitignored)
// from the bundled spec with Redoc through `redocly build-docs --inlineBundle`: the page embeds
// Redoc's scripts, so it opens without a network (no CDN). Each operation and webhook shows the
// requirements and decisions it carries (withTraceability).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { HTTP_METHODS } from '../spec/index.ts';
import { bins, mustRun, repoRoot } from './lib/run.ts';

export const DOCS_INPUT = 'generated/openapi.yaml';
export const REQUIREMENTS = 'spec/requirements.yaml';
export const DOCS_OUTPUT = 'docs/build/index.html';
export const DOCS_TITLE = 'Content Service API';

export type Requirement = { id: string; level: string; statement: string };
type Operation = { description?: string; 'x-requirements'?: string[]; 'x-decision'?: string[] };
type Document = Record<string, unknown> & { paths?: PathItems; webhooks?: PathItems };
type PathItems = Record<string, Partial<Record<string, Operation>>>;

/** The markdown block an operation's description ends with: its requirement and decision ids. */
export function traceabilityBlock(operation: Operation, catalogue: ReadonlyMap<string, Requirement>): string {
  const ids = [...(operation['x-requirements'] ?? []), ...(operation['x-decision'] ?? [])];
  if (ids.length === 0) return '';
  const items = [...new Set(ids)].map((id) => {
    const requirement = catalogue.get(id);
    if (!requirement) throw new Error(`${id} is not in ${REQUIREMENTS}`);
    return `- **${id}** · ${requirement.level} · ${requirement.statement.replaceAll('\n', ' ')}`;
  });
  return ['**Requirements and decisions**', '', ...items].join('\n');
}

/**
 * The bundle as the reference shows it: the description of every operation and webhook ends
 * with the requirements (`x-requirements`) and decisions (`x-decision`) it carries, with their
 * level and statement from the catalogue. Redoc shows extensions nowhere and searches only names
 * and descriptions; in the description the ids are read and found.
 */
export function withTraceability(document: Document, requirements: readonly Requirement[]): Document {
  const catalogue = new Map(requirements.map((r) => [r.id, r]));
  const out = structuredClone(document);
  for (const items of [out.paths, out.webhooks])
    for (const item of Object.values(items ?? {}))
      for (const method of HTTP_METHODS) {
        const operation = item[method];
        if (!operation) continue;
        const block = traceabilityBlock(operation, catalogue);
        if (block)
          operation.description = operation.description ? `${operation.description.trimEnd()}\n\n${block}` : block;
      }
  return out;
}

export function readRequirements(): Requirement[] {
  const file = fs.readFileSync(path.join(repoRoot, REQUIREMENTS), 'utf8');
  return (YAML.parse(file) as { requirements: Requirement[] }).requirements;
}

/** Builds the reference page and returns its absolute path. */
export async function buildDocs(): Promise<string> {
  const input = path.join(repoRoot, DOCS_INPUT);
  if (!fs.existsSync(input)) throw new Error(`${DOCS_INPUT} is missing: run \`npm run generate\` first`);
  const output = path.join(repoRoot, DOCS_OUTPUT);
  fs.mkdirSync(path.dirname(output), { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-docs-'));
  try {
    const page = path.join(work, 'openapi.json');
    const bundled = YAML.parse(fs.readFileSync(input, 'utf8')) as Document;
    fs.writeFileSync(page, JSON.stringify(withTraceability(bundled, readRequirements())));
    await mustRun(bins.redocly, ['build-docs', page, '--inlineBundle', '--title', DOCS_TITLE, '--output', output]);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return output;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = performance.now();
  buildDocs().then(
    (file) => {
      const kib = Math.round(fs.statSync(file).size / 1024);
      console.log(
        `${path.relative(repoRoot, file)} written (${kib} KiB, self-contained) in ${Math.round(performance.now() - started)} ms`,
      );
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
