// `npm start`'s prestart: builds the API reference docs/build/index.html (the `npm run docs` build)
// when it is missing or older than the bundled spec it is made from, so that the first `npm start`
// of a fresh clone serves it at /docs/ and prints its URL. Otherwise it does nothing. A failed
// build does not stop the start: the service then prints "Docs: not built".
import fs from 'node:fs';
import path from 'node:path';
import { DOCS_INPUT, DOCS_OUTPUT, buildDocs } from './build-docs.ts';
import { repoRoot } from './lib/run.ts';

export interface EnsureDocsOptions {
  /** The spec the page is built from; generated/openapi.yaml by default. */
  input?: string;
  /** The page; docs/build/index.html by default. */
  output?: string;
  /** Writes `output`; the real `npm run docs` build by default. */
  build?: () => Promise<unknown>;
  /** Where progress lines go. */
  log?: (line: string) => void;
}

export type EnsureDocsResult = { built: false } | { built: true; reason: string; ms: number };

/** Why the page must be (re)built, or undefined when it is there and newer than its spec. */
export function staleReason(input: string, output: string): string | undefined {
  const page = fs.statSync(output, { throwIfNoEntry: false });
  if (page === undefined) return `${relative(output)} is missing`;
  const spec = fs.statSync(input, { throwIfNoEntry: false });
  if (spec !== undefined && spec.mtimeMs > page.mtimeMs) return `${relative(output)} is older than ${relative(input)}`;
  return undefined;
}

/** Builds the page when staleReason says so; throws what the build threw. */
export async function ensureDocs(options: EnsureDocsOptions = {}): Promise<EnsureDocsResult> {
  const input = options.input ?? path.join(repoRoot, DOCS_INPUT);
  const output = options.output ?? path.join(repoRoot, DOCS_OUTPUT);
  const reason = staleReason(input, output);
  if (reason === undefined) return { built: false };
  options.log?.(`docs: ${reason}; building it (npm run docs) ...`);
  const started = performance.now();
  await (options.build ?? buildDocs)();
  const ms = Math.round(performance.now() - started);
  options.log?.(`docs: ${relative(output)} built in ${ms} ms`);
  return { built: true, reason, ms };
}

/** The prestart itself: ensureDocs, with a failure reported and the start let go on. */
export async function prestart(options: EnsureDocsOptions & { warn?: (line: string) => void } = {}): Promise<void> {
  const warn = options.warn ?? ((line: string) => console.error(line));
  try {
    await ensureDocs({ log: (line) => console.log(line), ...options });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    warn(`docs: not built, starting without them (run \`npm run docs\` to retry): ${message}`);
  }
}

function relative(file: string): string {
  const inRepo = path.relative(repoRoot, file);
  return inRepo.startsWith('..') ? file : inRepo;
}

if (import.meta.url === `file://${process.argv[1]}`) await prestart();
