// Driver errors in one recognisable shape, the same for PGlite and node-postgres.

const PG_UNIQUE_VIOLATION = '23505';

/** A database error with its SQLSTATE `code` and, for constraint violations, the constraint name. */
export class DbError extends Error {
  readonly code: string;
  readonly constraint: string | undefined;
  readonly table: string | undefined;
  readonly detail: string | undefined;

  constructor(
    message: string,
    fields: { code: string; constraint?: string; table?: string; detail?: string; cause?: unknown },
  ) {
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

/**
 * The database cannot be reached or dropped the connection mid-statement: SQLSTATE class 08
 * (connection exception), 57P01..57P03 (administrator or crash shutdown, cannot connect now),
 * 53300 (too many connections), or a driver-level connection failure without a SQLSTATE. Nothing
 * the client sent is at fault and the next attempt may well succeed: the API answers 503.
 */
export class StorageUnavailableError extends DbError {
  constructor(message: string, fields: { code: string; cause?: unknown }) {
    super(message, fields);
    this.name = 'StorageUnavailableError';
  }
}

export function isStorageUnavailable(error: unknown): error is StorageUnavailableError {
  return error instanceof StorageUnavailableError;
}

const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
// node-postgres reports a lost or refused connection without a SQLSTATE.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const DRIVER_CONNECTION_MESSAGE =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Client was closed and is not queryable)/;
const CONNECTION_FAILURE = '08006';

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
  if (typeof candidate.code === 'string' && NETWORK_CODES.has(candidate.code))
    return new StorageUnavailableError(error.message, { code: CONNECTION_FAILURE, cause: error });
  if (typeof candidate.code !== 'string' || !/^[0-9A-Z]{5}$/.test(candidate.code)) {
    return DRIVER_CONNECTION_MESSAGE.test(error.message)
      ? new StorageUnavailableError(error.message, { code: CONNECTION_FAILURE, cause: error })
      : error;
  }
  if (UNAVAILABLE_SQLSTATE.test(candidate.code))
    return new StorageUnavailableError(error.message, { code: candidate.code, cause: error });
  const fields = { constraint: candidate.constraint, table: candidate.table, detail: candidate.detail, cause: error };
  return candidate.code === PG_UNIQUE_VIOLATION
    ? new UniqueViolationError(error.message, fields)
    : new DbError(error.message, { ...fields, code: candidate.code });
}
