// Where the packaged contract lives, and the one way to read it. Paths are relative to this
// module, so they hold both in the repository (spec/access/load.ts) and in the package
// (spec/access/load.js).

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type OpenApiDocument = Record<string, any>;

const packaged = (file: string) => fileURLToPath(new URL(`../../${file}`, import.meta.url));

/** Absolute paths of the packaged files. */
export const SPEC_FILES = {
  /** Bundled: one document, shared parts under `components`, referenced with `$ref`. */
  json: packaged('generated/openapi.json'),
  yaml: packaged('generated/openapi.yaml'),
  /** The interface layer: the bundled spec without our decisions' constraints (`x-relaxed` marks them). */
  interface: packaged('generated/openapi.interface.json'),
  /** Every `$ref` inlined except the recursive ones. */
  dereferenced: packaged('generated/openapi.dereferenced.json'),
  /** The requirement catalogue (ids, levels, how each is verified). */
  requirements: packaged('spec/requirements.yaml'),
} as const;

export interface LoadedSpec {
  file: string;
  /** SHA-256 of the file's bytes: ties a result to the exact contract. */
  sha256: string;
  document: OpenApiDocument;
}

/** A spec file that cannot be read or is not an OpenAPI document. */
export class SpecError extends Error {
  override readonly name = 'SpecError';
}

/** Parses an OpenAPI 3.0/3.1 JSON document with its SHA-256; throws SpecError on anything else. */
export function parseSpec(bytes: Buffer | string, file = 'openapi.json'): LoadedSpec {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  let document: OpenApiDocument;
  try {
    document = JSON.parse(buffer.toString('utf8')) as OpenApiDocument;
  } catch (error) {
    throw new SpecError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof document?.openapi !== 'string' || !/^3\.[01]\./.test(document.openapi))
    throw new SpecError(`${file} is not an OpenAPI 3.0/3.1 document (openapi: ${JSON.stringify(document?.openapi)})`);
  if (typeof document.paths !== 'object' || document.paths === null) throw new SpecError(`${file} has no paths`);
  return { file, sha256: createHash('sha256').update(buffer).digest('hex'), document };
}

/** Reads the bundled spec (or another OpenAPI JSON file, such as SPEC_FILES.interface). */
export function loadSpec(file: string = SPEC_FILES.json): LoadedSpec {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const hint =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? ' (run `npm run generate` first, or pass --spec)' : '';
    throw new SpecError(`cannot read the bundled spec ${file}${hint}: ${(error as Error).message}`);
  }
  return parseSpec(bytes, file);
}
