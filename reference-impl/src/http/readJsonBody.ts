import type { IncomingMessage } from 'node:http';
import express, { type RequestHandler } from 'express';
import { findDuplicateName, hasEscapedName, parseJson } from '../../../spec/json.ts';
import { badRequest } from './HttpError.ts';
import { findPrincipal } from './principal.ts';
import { requireUtf8Body } from './requireUtf8Body.ts';

const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * The JSON body parser: 1 MiB once the bearer was checked (DEC-ERR-003), `preAuthBytes` before.
 * A body with an escaped member name is read again by parseJson once Express's parser accepted
 * it: JSON.parse can lose such names (spec/json.ts), and a stored item would keep the wrong name.
 * A body in which one object repeats a member name is a 400 naming it (DEC-ERR-006): JSON.parse
 * would keep the last silently, and which one the writer meant cannot be known.
 */
export function readJsonBody(preAuthBytes: number): RequestHandler {
  const raw = new WeakMap<IncomingMessage, Buffer>();
  const verify = (req: IncomingMessage, res: unknown, body: Buffer) => {
    requireUtf8Body(req, res, body);
    raw.set(req, body);
  };
  const authenticated = express.json({ limit: '1mb', type: JSON_TYPES, verify });
  const anonymous = express.json({ limit: preAuthBytes, type: JSON_TYPES, verify });
  return function readJsonBodyHandler(req, res, next) {
    (findPrincipal(res) === undefined ? anonymous : authenticated)(req, res, (error?: unknown) => {
      const body = raw.get(req);
      if (error !== undefined || body === undefined) return next(error);
      try {
        const text = body.toString('utf8').replace(/^\uFEFF/, ''); // as the decoder drops a BOM
        // Escapes in values only (a "\n" in a description) are read right: no second parse.
        if (body.includes(0x5c) && hasEscapedName(text)) req.body = parseJson(text);
        const repeated = findDuplicateName(text, req.body);
        if (repeated !== undefined) {
          throw badRequest(
            repeated.pointer,
            `Request body is invalid: member ${JSON.stringify(repeated.name)} appears more than once in one object (at ${repeated.pointer}); send each member once`,
          );
        }
      } catch (parseError) {
        return next(parseError);
      }
      next();
    });
  };
}
