// `npm run docs`: builds the self-contained HTML reference docs/build/index.html (gitignored)
// from the bundled spec with Redoc through `redocly build-docs --inlineBundle`: the page embeds
// Redoc's scripts, so it opens without a network (no CDN).
import fs from 'node:fs';
import path from 'node:path';
import { bins, mustRun, repoRoot } from './lib/run.ts';

export const DOCS_INPUT = 'generated/openapi.yaml';
export const DOCS_OUTPUT = 'docs/build/index.html';
export const DOCS_TITLE = 'Content Service API';

/** Builds the reference page and returns its absolute path. */
export async function buildDocs(): Promise<string> {
  const input = path.join(repoRoot, DOCS_INPUT);
  if (!fs.existsSync(input)) throw new Error(`${DOCS_INPUT} is missing: run \`npm run generate\` first`);
  const output = path.join(repoRoot, DOCS_OUTPUT);
  fs.mkdirSync(path.dirname(output), { recursive: true });
  await mustRun(bins.redocly, [
    'build-docs',
    DOCS_INPUT,
    '--inlineBundle',
    '--title',
    DOCS_TITLE,
    '--output',
    DOCS_OUTPUT,
  ]);
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
