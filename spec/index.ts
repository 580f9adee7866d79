// @content-service/spec: where the packaged contract lives, and one way to load it, follow its
// `$ref`s and compile ajv validators for any part of it. Paths are relative to this module, so
// they hold both in the repository (spec/index.ts) and in the package (spec/index.js).

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export type OpenApiDocument = Record<string, any>;

/** Absolute paths of the packaged files. */
export const SPEC_FILES = {
  /** Bundled: one document, shared parts under `components`, referenced with `$ref`. */
  json: fileURLToPath(new URL('../generated/openapi.json', import.meta.url)),
  yaml: fileURLToPath(new URL('../generated/openapi.yaml', import.meta.url)),
  /** Every `$ref` inlined except the recursive ones. */
  dereferenced: fileURLToPath(new URL('../generated/openapi.dereferenced.json', import.meta.url)),
  /** The requirement catalogue (ids, levels, how each is verified). */
  requirements: fileURLToPath(new URL('./requirements.yaml', import.meta.url)),
} as const;

export interface LoadedSpec {
  file: string;
  /** SHA-256 of the file's bytes: ties a result to the exact contract. */
  sha256: string;
  document: OpenApiDocument;
}

/** Reads the bundled spec (or another OpenAPI JSON file) with its SHA-256. */
export function loadSpec(file: string = SPEC_FILES.json): LoadedSpec {
  const bytes = readFileSync(file);
  return {
    file,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    document: JSON.parse(bytes.toString('utf8')),
  };
}

/** JSON-pointer escaping of one path segment. */
export function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Follows a local `$ref` chain (`#/components/...`) inside a bundled document. */
export function resolveRef<T = any>(document: OpenApiDocument, node: unknown): T {
  let current = node as { $ref?: unknown } | undefined;
  for (let hops = 0; current && typeof current === 'object' && typeof current.$ref === 'string' && hops < 20; hops++) {
    const ref = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`only local refs are expected in the bundle (got ${ref})`);
    current = ref
      .slice(2)
      .split('/')
      .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce((acc: OpenApiDocument | undefined, key) => acc?.[key], document);
  }
  return current as T;
}

const DOC_ID = 'https://content-service.invalid/openapi.json';

/**
 * Returns a function that compiles (once) the schema at a JSON pointer of `document`, such as
 * `/components/schemas/Error` (JSON Schema 2020-12, formats checked).
 */
export function createValidatorFactory(document: OpenApiDocument): (pointer: string) => ValidateFunction {
  // strict: false because OpenAPI adds keywords JSON Schema does not know (example,
  // discriminator, xml, x-…); they annotate and never validate.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  ajv.addSchema({ ...document, $id: DOC_ID });
  const cache = new Map<string, ValidateFunction>();
  return (pointer: string): ValidateFunction => {
    let validate = cache.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOC_ID}#${pointer}` });
      cache.set(pointer, validate);
    }
    return validate;
  };
}

/** The errors of the last validation, one per line. */
export function formatErrors(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
    .join('\n');
}
