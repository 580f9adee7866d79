import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { JsonObject } from './openapiDocument.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** The id the spec is registered under: compile `{ $ref: `${SPEC_ID}#/components/schemas/Event` }`. */
export const SPEC_ID = 'openapi.json';

/** An ajv with formats and the whole spec registered as SPEC_ID, so every `$ref` resolves in it. */
export function createSpecAjv(doc: JsonObject): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: false, useDefaults: false });
  addFormats(ajv);
  ajv.addSchema(doc, SPEC_ID);
  return ajv;
}
