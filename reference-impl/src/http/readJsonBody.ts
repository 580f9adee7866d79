import type { IncomingMessage } from 'node:http';
import express, { type RequestHandler } from 'express';
import { hasEscapedName, parseJson } from '../../../spec/json.ts';
import { findPrincipal } from './principal.ts';
import { requireUtf8Body } from './requireUtf8Body.ts';

const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * The JSON body parser: 1 MiB once the bearer was checked (DEC-ERR-003), `preAuthBytes` before.
 * A body with an escaped member name is read again by parseJson once Express's parser accepted
 * it: JSON.parse can lose such names (spec/json.ts), and a stored item would keep the wrong name.
 */
export function readJsonBody(preAuthBytes: number): RequestHandler {
  const withBackslash = new WeakMap<IncomingMessage, Buffer>();
  const verify = (req: IncomingMessage, res: unknown, body: Buffer) => {
    requireUtf8Body(req, res, body);
    if (body.includes(0x5c)) withBackslash.set(req, body);
  };
  const authenticated = express.json({ limit: '1mb', type: JSON_TYPES, verify });
  const anonymous = express.json({ limit: preAuthBytes, type: JSON_TYPES, verify });
  return function readJsonBodyHandler(req, res, next) {
    (findPrincipal(res) === undefined ? anonymous : authenticated)(req, res, (error?: unknown) => {
      const body = withBackslash.get(req);
      if (error !== undefined || body === undefined) return next(error);
      try {
        const text = body.toString('utf8').replace(/^\uFEFF/, ''); // as the decoder drops a BOM
        // Escapes in values only (a "\n" in a description) are read right: no second parse.
        if (hasEscapedName(text)) req.body = parseJson(text);
      } catch (parseError) {
        return next(parseError);
      }
      next();
    });
  };
}
