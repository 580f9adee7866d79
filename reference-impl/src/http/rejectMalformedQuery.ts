import type { RequestHandler } from 'express';
import { badRequest } from './HttpError.ts';

/**
 * A 400 for a query string whose percent-encoding is not UTF-8 (`?trcid=%FF`). The query parser
 * would otherwise put U+FFFD in place of the bad bytes and the request would go on with a value
 * the client never sent.
 */
export function rejectMalformedQuery(): RequestHandler {
  return function rejectMalformedQueryHandler(req, _res, next) {
    const start = req.url.indexOf('?');
    if (start === -1) {
      next();
      return;
    }
    for (const pair of req.url.slice(start + 1).split('&')) {
      const [name = '', value = ''] = pair.split(/=(.*)/s);
      for (const part of [name, value]) {
        if (decodes(part)) continue;
        const shown = decodes(name) ? decodeURIComponent(name.replaceAll('+', ' ')) : name;
        throw badRequest(
          `query/${shown}`,
          `${shown} is not percent-encoded UTF-8 (received: ${part}); encode query names and values as UTF-8`,
        );
      }
    }
    next();
  };
}

function decodes(component: string): boolean {
  try {
    decodeURIComponent(component.replaceAll('+', ' '));
    return true;
  } catch {
    return false;
  }
}
