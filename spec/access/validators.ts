// The one ajv set-up: JSON Schema 2020-12 (the dialect of OpenAPI 3.1) with formats checked.
// A document's schemas are compiled by their JSON pointer into it, once each, so their `$ref`s
// resolve in the document as they are.

import { Ajv2020, type ErrorObject, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenApiDocument } from './load.ts';

export type { ErrorObject, ValidateFunction };

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export interface AjvOptions {
  /** Every error, not only the first. Default true. */
  allErrors?: boolean;
  /** Coerce scalars to the schema's type while validating. Default false. */
  coerceTypes?: boolean;
  /** Fill in `default`s while validating. Default false. */
  useDefaults?: boolean;
  /** Union types (`type: [string, array]`) without strict-mode complaints. Default false. */
  allowUnionTypes?: boolean;
  /** Errors carry the failing schema and data. Default false. */
  verbose?: boolean;
  /** Print ajv's warnings (unknown formats, ignored keywords). Default true. */
  warnings?: boolean;
}

/**
 * An ajv with formats. strict is off: OpenAPI adds keywords JSON Schema does not know
 * (`example`, `discriminator`, `xml`, `x-…`); they annotate and never validate.
 */
export function createAjv(options: AjvOptions = {}): Ajv2020 {
  const settings: Options = {
    strict: false,
    allErrors: options.allErrors ?? true,
    coerceTypes: options.coerceTypes ?? false,
    useDefaults: options.useDefaults ?? false,
    allowUnionTypes: options.allowUnionTypes ?? false,
    verbose: options.verbose ?? false,
    validateFormats: true,
  };
  if (options.warnings === false) settings.logger = { log() {}, warn() {}, error() {} };
  return addFormats(new Ajv2020(settings));
}

const DOC_ID = 'openapi.json';

/** Compiles the schema at a JSON pointer of the document (`/components/schemas/Error`), once. */
export interface ValidatorFactory {
  (pointer: string): ValidateFunction;
}

/** Validators for the schemas of `document` (a `#` before the pointer is allowed). */
export function createValidatorFactory(document: OpenApiDocument, options: AjvOptions = {}): ValidatorFactory {
  const ajv = createAjv(options);
  ajv.addSchema(document, DOC_ID);
  const compiled = new Map<string, ValidateFunction>();
  return (pointer: string): ValidateFunction => {
    const plain = pointer.startsWith('#') ? pointer.slice(1) : pointer;
    let validate = compiled.get(plain);
    if (validate === undefined) {
      const fragment = plain
        .split('/')
        .map((token) => encodeURIComponent(token).replaceAll('%7E', '~'))
        .join('/');
      validate = ajv.compile({ $ref: `${DOC_ID}#${fragment}` });
      compiled.set(plain, validate);
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
