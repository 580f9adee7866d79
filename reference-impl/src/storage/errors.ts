// Driver errors in one recognisable shape, the same for PGlite and node-postgres.

export const PG_UNIQUE_VIOLATION = '23505';
export const PG_FOREIGN_KEY_VIOLATION = '23503';
export const PG_CHECK_VIOLATION = '23514';
export const PG_SERIALIZATION_FAILURE = '40001';
export const PG_DEADLOCK_DETECTED = '40P01';

/** A database error with its SQLSTATE `code` and, for constraint violations, the constraint name. */
export class DbError extends Error {
  readonly code: string;
  readonly constraint: string | undefined;
  readonly table: string | undefined;
  readonly detail: string | undefined;

  constructor(message: string, fields: { code: string; constraint?: string; table?: string; detail?: string; cause?: unknown }) {
    super(message, { cause: fields.cause });
    this.name = 'DbError';
    this.code = fields.code;
    this.constraint = fields.constraint;
    this.table = fields.table;
    this.detail = fields.detail;
  }
}

/** SQLSTATE 23505: a row with the same unique key exists (`constraint` names which key). */
export class UniqueViolationError extends DbError {
  constructor(message: string, fields: { constraint?: string; table?: string; detail?: string; cause?: unknown }) {
    super(message, { ...fields, code: PG_UNIQUE_VIOLATION });
    this.name = 'UniqueViolationError';
  }
}

export function isUniqueViolation(error: unknown, constraint?: string): error is UniqueViolationError {
  return error instanceof UniqueViolationError && (constraint === undefined || error.constraint === constraint);
}

interface DriverError {
  message: string;
  code: string;
  constraint?: string;
  table?: string;
  detail?: string;
}

/** Rethrows a driver error as DbError when it carries a SQLSTATE; anything else unchanged. */
export function toDbError(error: unknown): unknown {
  if (error instanceof DbError || !(error instanceof Error)) return error;
  const candidate = error as Partial<DriverError>;
  if (typeof candidate.code !== 'string' || !/^[0-9A-Z]{5}$/.test(candidate.code)) return error;
  const fields = { constraint: candidate.constraint, table: candidate.table, detail: candidate.detail, cause: error };
  return candidate.code === PG_UNIQUE_VIOLATION
    ? new UniqueViolationError(error.message, fields)
    : new DbError(error.message, { ...fields, code: candidate.code });
}
