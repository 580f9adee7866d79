// JSON Schema of the config file (content-conformance.yaml): one key per command-line option
// (the flag's name, e.g. `base-url`) plus `variants`, the choices the vendor declares.

import type { TargetVariants } from '../model/variants.ts';
import type { OptionName, OptionSpec } from './options.ts';
import { OPTIONS } from './options.ts';

/** Options that make no sense in a file: they ask for something other than a run. */
export const NOT_IN_FILE: readonly OptionName[] = ['config', 'help', 'version'];

/** Option values that are numbers; the file may write them as YAML numbers. */
const NUMERIC_VALUES = new Set(['MS', 'PORT', 'BYTES', 'N']);

type Schema = Record<string, unknown>;

const status: Schema = { type: 'integer', minimum: 100, maximum: 599 };
const fieldName: Schema = { type: 'string', pattern: '^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$' };
const statusMove: Schema = { enum: ['post', 'put', 'unsupported'] };

/** One entry per field of TargetVariants: tsc fails here when a variant is added without its schema. */
const VARIANT_SCHEMAS: Record<keyof TargetVariants, Schema> = {
  createdItem: { enum: ['answer-body', 'location-header', 'trcid-lookup'] },
  updatePath: { enum: ['detail', 'collection'] },
  tokenIdField: fieldName,
  userOrganisationsShape: { enum: ['array', 'map'] },
  assetFirstPage: { enum: [0, 1] },
  listFirstPage: { enum: [0, 1] },
  statusMoves: {
    type: 'object',
    additionalProperties: false,
    properties: { rejected: statusMove, archived: statusMove, deleted: statusMove },
  },
  logoutMethod: { enum: ['POST', 'GET', 'DELETE'] },
  signIn: {
    type: 'object',
    additionalProperties: false,
    required: ['userField', 'passwordField'],
    properties: { userField: fieldName, passwordField: fieldName },
  },
  credentialStatuses: {
    type: 'object',
    additionalProperties: false,
    required: ['missing', 'invalid', 'forbidden'],
    properties: { missing: status, invalid: status, forbidden: status },
  },
  errorBodies: { enum: ['json', 'other'] },
  tokenFilter: {
    oneOf: [
      { const: 'unsupported' },
      {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        properties: { organisationsField: fieldName, statusesField: fieldName },
      },
    ],
  },
};

function optionSchema(spec: OptionSpec): Schema {
  if (spec.type === 'boolean') return { type: 'boolean' };
  const text: Schema = { type: 'string', minLength: 1 };
  if (spec.value && NUMERIC_VALUES.has(spec.value)) return { ...text, type: ['integer', 'string'] };
  if (spec.multiple || spec.value === 'LIST') return { ...text, type: ['string', 'array'], items: text };
  return text;
}

export function configFileSchema(): Schema {
  const properties: Record<string, Schema> = {};
  for (const [name, spec] of Object.entries(OPTIONS) as [OptionName, OptionSpec][])
    if (!NOT_IN_FILE.includes(name)) properties[name] = optionSchema(spec);
  properties.variants = { type: 'object', additionalProperties: false, properties: VARIANT_SCHEMAS };
  return { type: 'object', additionalProperties: false, properties };
}
