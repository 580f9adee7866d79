import type { RequestHandler } from 'express';
import { HttpError } from './HttpError.ts';
import { findPrincipal, setPrincipal, type Principal } from './principal.ts';

/** Resolves a bearer value to the caller, or null when it is unknown, expired or revoked. */
export type BearerResolver = (bearer: string) => Promise<Principal | null>;

const BEARER = /^Bearer[ ]+([\x21-\x7e]{1,4096})$/i;

// @implements AUTH-002
/** 401 with `WWW-Authenticate: Bearer` unless the request carries a valid bearer token (AUTH-002, DEC-ERR-002). */
export function authenticate(options: { resolve: BearerResolver }): RequestHandler {
  return async function authenticateHandler(req, res, next) {
    // Checked already, before the body was read (authenticateBeforeBody).
    if (findPrincipal(res) !== undefined) {
      next();
      return;
    }
    const header = req.headers.authorization;
    if (header === undefined || header === '') {
      throw unauthorized('Authorization header with a Bearer token is required', 'Bearer');
    }
    const match = BEARER.exec(header);
    if (match === null) {
      throw unauthorized('Authorization header must be "Bearer <token>"', 'Bearer error="invalid_request"');
    }
    const principal = await options.resolve(match[1]!);
    if (principal === null) {
      throw unauthorized('The bearer token is unknown, expired or revoked', 'Bearer error="invalid_token"');
    }
    setPrincipal(res, principal);
    next();
  };
}

function unauthorized(message: string, challenge: string): HttpError {
  return new HttpError(401, { message, headers: { 'WWW-Authenticate': challenge } });
}
