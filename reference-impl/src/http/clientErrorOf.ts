import { RuleViolation } from '../domain/ruleViolation.ts';
import { HttpError } from './HttpError.ts';

/**
 * The client error `error` is answered with: an HttpError as it is, a broken domain rule as a 400
 * (a 403 when forbidden) carrying its message and details; undefined for anything else.
 */
export function clientErrorOf(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (error instanceof RuleViolation)
    return new HttpError(error.kind === 'forbidden' ? 403 : 400, {
      message: error.message,
      details: error.details,
      cause: error,
    });
  return undefined;
}
