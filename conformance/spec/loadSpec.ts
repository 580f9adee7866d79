// Loads the bundled spec (generated/openapi.json) and its SHA-256, which the reports print so a
// result can be tied to the exact contract it was checked against.

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

export interface OpenApiDocument {
  openapi: string;
  paths?: Record<string, unknown>;
  components?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface LoadedSpec {
  file: string;
  sha256: string;
  document: OpenApiDocument;
}

export class SpecError extends Error {
  override readonly name = 'SpecError';
}

export function parseSpec(bytes: Buffer | string, file = 'openapi.json'): LoadedSpec {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  let document: OpenApiDocument;
  try {
    document = JSON.parse(buffer.toString('utf8')) as OpenApiDocument;
  } catch (error) {
    throw new SpecError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof document?.openapi !== 'string' || !/^3\.[01]\./.test(document.openapi)) {
    throw new SpecError(`${file} is not an OpenAPI 3.0/3.1 document (openapi: ${JSON.stringify(document?.openapi)})`);
  }
  if (typeof document.paths !== 'object' || document.paths === null) throw new SpecError(`${file} has no paths`);
  return { file, sha256: createHash('sha256').update(buffer).digest('hex'), document };
}

export async function loadSpec(file: string): Promise<LoadedSpec> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    const hint =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? ' (run `npm run generate` first, or pass --spec)' : '';
    throw new SpecError(`cannot read the bundled spec ${file}${hint}: ${(error as Error).message}`);
  }
  return parseSpec(bytes, file);
}
