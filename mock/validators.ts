// Validators for the mock's tests: the spec package's loader (spec/index.ts), on the bundled
// generated/openapi.json.
import { loadSpec, type OpenApiDocument } from '../spec/index.ts';

export { createValidatorFactory, escapePointer, formatErrors, resolveRef } from '../spec/index.ts';
export type { OpenApiDocument } from '../spec/index.ts';

export function loadBundledSpec(): OpenApiDocument {
  return loadSpec().document;
}
