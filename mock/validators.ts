// Compiles JSON Schema validators (Ajv, draft 2020-12, with formats) for parts of the bundled
// spec generated/openapi.json, so tests can check the mock's answers against the contract.
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { repoRoot } from './start.ts';

export type OpenApiDocument = Record<string, any>;

const DOC_ID = 'https://content-service.invalid/openapi.json';

export function loadBundledSpec(): OpenApiDocument {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, 'generated/openapi.json'), 'utf8')) as OpenApiDocument;
}

/** JSON-pointer escaping of one path segment. */
export function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Returns a function that compiles (once) the schema at a JSON pointer such as `/components/schemas/Error`. */
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

/** Follows a local `$ref` chain (`#/components/...`) inside the bundled document. */
export function resolveRef<T = any>(document: OpenApiDocument, node: any): T {
  let current = node;
  for (let hops = 0; current && typeof current === 'object' && typeof current.$ref === 'string' && hops < 20; hops++) {
    const ref: string = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`only local refs are expected in the bundle (got ${ref})`);
    current = ref
      .slice(2)
      .split('/')
      .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce((acc: any, key) => acc?.[key], document);
  }
  return current as T;
}

export function formatErrors(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
    .join('\n');
}
