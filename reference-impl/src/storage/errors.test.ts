import { describe, expect, it } from 'vitest';
import { DbError, StorageUnavailableError, UniqueViolationError, isStorageUnavailable, toDbError } from './errors.ts';

function driverError(message: string, code?: string): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

describe('toDbError', () => {
  it('when the server ends or refuses the connection, then it is a StorageUnavailableError with the SQLSTATE', () => {
    for (const code of ['57P01', '57P02', '57P03', '08006', '08001', '53300']) {
      const error = toDbError(driverError('terminating connection due to administrator command', code));
      expect(error, code).toBeInstanceOf(StorageUnavailableError);
      expect((error as DbError).code).toBe(code);
    }
  });

  it('when node-postgres loses or cannot open the connection, then it is a StorageUnavailableError (08006)', () => {
    const lost = [
      driverError('Connection terminated unexpectedly'),
      driverError('Client has encountered a connection error and is not queryable'),
      driverError('timeout exceeded when trying to connect'),
      driverError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      driverError('read ECONNRESET', 'ECONNRESET'),
    ];
    for (const error of lost) {
      const mapped = toDbError(error);
      expect(isStorageUnavailable(mapped), error.message).toBe(true);
      expect((mapped as DbError).code).toBe('08006');
      expect((mapped as DbError).cause).toBe(error);
    }
  });

  it('when the error is about the statement, then it stays what it was', () => {
    expect(toDbError(driverError('duplicate key', '23505'))).toBeInstanceOf(UniqueViolationError);
    const missing = toDbError(driverError('relation "x" does not exist', '42P01'));
    expect(missing).toBeInstanceOf(DbError);
    expect(isStorageUnavailable(missing)).toBe(false);
    const plain = new Error('something else');
    expect(toDbError(plain)).toBe(plain);
  });
});
