// @content-service/spec: the packaged contract and the one way every package reads it: load it,
// follow its `$ref`s and JSON pointers, index its operations, and validate against its schemas
// with the one ajv set-up. Each job is a small module in access/.

export { loadSpec, parseSpec, SPEC_FILES, SpecError, type LoadedSpec, type OpenApiDocument } from './access/load.ts';
export {
  escapePointer,
  getAt,
  joinPointer,
  refPointer,
  refTarget,
  resolveLocal,
  type ResolvedRef,
  resolveRef,
  unescapePointer,
} from './access/pointer.ts';
export {
  HTTP_METHODS,
  indexOperations,
  operationParameters,
  responseSchemaPointer,
  type HttpMethod,
  type OperationRef,
  type ParameterRef,
} from './access/operations.ts';
export {
  createAjv,
  createValidatorFactory,
  formatErrors,
  type AjvOptions,
  type ErrorObject,
  type ValidateFunction,
  type ValidatorFactory,
} from './access/validators.ts';
