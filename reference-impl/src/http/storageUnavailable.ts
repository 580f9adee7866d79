import type { ErrorRequestHandler } from 'express';
import { isStorageUnavailable } from '../storage/errors.ts';
import { HttpError } from './HttpError.ts';

/** Seconds a client is asked to wait before retrying while the database is unreachable. */
const STORAGE_RETRY_AFTER_SECONDS = 1;

/**
 * A request whose database connection was lost or refused (storage/errors.ts
 * StorageUnavailableError) is answered 503 in the error shape with `Retry-After`, not a 500: the
 * request was fine, the next one may succeed (the pool replaces the broken connection). Placed
 * just before the error handler, which logs it with its cause and renders it.
 */
export function storageUnavailable(): ErrorRequestHandler {
  return function storageUnavailableHandler(error: unknown, _req, _res, next) {
    if (!isStorageUnavailable(error)) {
      next(error);
      return;
    }
    next(
      new HttpError(503, {
        message: `The service cannot reach its database at the moment; retry after ${STORAGE_RETRY_AFTER_SECONDS} s`,
        headers: { 'Retry-After': String(STORAGE_RETRY_AFTER_SECONDS) },
        cause: error,
      }),
    );
  };
}
