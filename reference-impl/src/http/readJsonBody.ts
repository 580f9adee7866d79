import type { IncomingMessage } from 'node:http';
import express, { type RequestHandler } from 'express';
import { findDuplicateName, hasEscapedName, parseJson } from '../../../spec/json.ts';
import { discardUnreadBody, type DiscardUnreadBodyOptions } from './discardUnreadBody.ts';
import { badRequest, HttpError } from './HttpError.ts';
import { findPrincipal } from './principal.ts';
import { requireUtf8Body } from './requireUtf8Body.ts';

const JSON_TYPES = ['application/json', 'application/*+json'];
const AUTHENTICATED_BYTES = 1024 * 1024; // DEC-ERR-003

export interface ReadJsonBodyOptions {
  /** Largest body of an operation without a bearer (sign-in, refresh). */
  preAuthBytes: number;
  /** Time a JSON body has to arrive after its headers; then the connection is closed. */
  bodyTimeoutMs: number;
  /** What happens to a body refused on its Content-Length: read and dropped within these caps. */
  discard: DiscardUnreadBodyOptions;
}

// @implements DEC-ERR-003, DEC-ERR-030
/**
 * The JSON body parser: 1 MiB once the bearer was checked (DEC-ERR-003), `preAuthBytes` before.
 * A declared `Content-Length` above the limit is a 413 at once (the parser would read the whole
 * body first, however slowly it came), and a body still incomplete after `bodyTimeoutMs` has its
 * connection closed, so that a slow client holds its buffer for seconds, not the request timeout.
 * A body with an escaped member name is read again by parseJson once Express's parser accepted
 * it: JSON.parse can lose such names (spec/json.ts), and a stored item would keep the wrong name.
 * A body in which one object repeats a member name is a 400 naming it (DEC-ERR-006): JSON.parse
 * would keep the last silently, and which one the writer meant cannot be known.
 */
export function readJsonBody(options: ReadJsonBodyOptions): RequestHandler {
  const raw = new WeakMap<IncomingMessage, Buffer>();
  const verify = (req: IncomingMessage, res: unknown, body: Buffer) => {
    requireUtf8Body(req, res, body);
    raw.set(req, body);
  };
  const authenticated = express.json({ limit: AUTHENTICATED_BYTES, type: JSON_TYPES, verify });
  const anonymous = express.json({ limit: options.preAuthBytes, type: JSON_TYPES, verify });
  return function readJsonBodyHandler(req, res, next) {
    const anonymousCaller = findPrincipal(res) === undefined;
    const limit = anonymousCaller ? options.preAuthBytes : AUTHENTICATED_BYTES;
    if (req.is(JSON_TYPES) && declaredLength(req) > limit) {
      discardUnreadBody(req, res, options.discard);
      next(
        new HttpError(413, {
          message: `Request body exceeds the limit of ${limit} bytes (Content-Length: ${req.headers['content-length']})`,
        }),
      );
      return;
    }
    const timer = setTimeout(() => {
      if (!req.complete) req.socket.destroy();
    }, options.bodyTimeoutMs);
    (anonymousCaller ? anonymous : authenticated)(req, res, (error?: unknown) => {
      clearTimeout(timer);
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

/** The declared length of a body sent as is (a compressed body's length says nothing of its JSON); else 0. */
function declaredLength(req: IncomingMessage): number {
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return 0;
  const length = Number(req.headers['content-length']);
  return Number.isFinite(length) ? length : 0;
}
