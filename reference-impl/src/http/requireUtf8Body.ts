import type { IncomingMessage } from 'node:http';
import { isUtf8 } from 'node:buffer';
import { HttpError } from './HttpError.ts';

/**
 * The JSON parser's `verify` hook: a body that is not UTF-8 is a 400. Without it the decoder
 * would store U+FFFD in place of each bad byte, silently changing what the client sent.
 */
export function requireUtf8Body(_req: IncomingMessage, _res: unknown, body: Buffer): void {
  if (!isUtf8(body))
    throw new HttpError(400, {
      message:
        'Request body is not valid UTF-8 (a byte sequence that is no UTF-8 character, such as 0xFF, a cut-off sequence, an overlong form or an encoded surrogate); JSON bodies must be UTF-8',
    });
}
