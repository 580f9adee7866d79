import type { $Read, $Write, operations } from '../../../generated/types.ts';

// What request validation hands a handler, typed from the spec (generated/types.ts). Path and
// query values are those the validator produced: coerced by their schema type, then checked
// against the schema, so the schema's type is theirs.

export type OperationId = keyof operations;

/** A contract type as ajv checks it: readOnly and writeOnly are annotations to it, not rules. */
export type AsValidated<T> =
  T extends $Read<infer U>
    ? AsValidated<U>
    : T extends $Write<infer U>
      ? AsValidated<U>
      : T extends readonly (infer E)[]
        ? AsValidated<E>[]
        : T extends object
          ? { [K in keyof T]: AsValidated<T[K]> }
          : T;

/** An operation's path or query parameters; none is an object without keys. */
type ParametersIn<Op extends OperationId, In extends 'path' | 'query'> = [
  NonNullable<operations[Op]['parameters'][In]>,
] extends [never]
  ? Record<never, never>
  : NonNullable<operations[Op]['parameters'][In]>;

type RequestBodyOf<Op extends OperationId> = operations[Op] extends { requestBody?: infer R } ? R : undefined;

/** The JSON body; `undefined` when the operation takes none, or an optional one was not sent. */
type JsonBody<Op extends OperationId> = [NonNullable<RequestBodyOf<Op>>] extends [never]
  ? undefined
  : NonNullable<RequestBodyOf<Op>> extends { content: { 'application/json': infer B } }
    ? undefined extends RequestBodyOf<Op>
      ? AsValidated<B> | undefined
      : AsValidated<B>
    : undefined;

/** The validated request of operation `Op`. */
export interface OperationInput<Op extends OperationId> {
  params: ParametersIn<Op, 'path'>;
  query: ParametersIn<Op, 'query'>;
  body: JsonBody<Op>;
}
