// Conforming variation: items are updated with PUT /<collection> and the id in the body; PUT on
// the detail URL answers 405 ("Path of the update operation (PUT) for items: not shown"; our
// DEC-ITEM-001). The proxy turns the collection PUT into the reference service's detail PUT.

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { COLLECTIONS, jsonAnswer, urlOf } from '../traffic.ts';

const ITEM_RE = new RegExp(`^(.*/(?:${COLLECTIONS.join('|')}))(?:/([^/]+))?$`);

export function updateOnCollection(): FaultModifier {
  return {
    name: 'updateOnCollection',
    request(req) {
      if (req.method !== 'PUT') return req;
      const url = urlOf(req);
      const m = ITEM_RE.exec(url.pathname);
      if (!m) return req;
      if (m[2] !== undefined)
        return {
          ...req,
          answer: jsonAnswer(
            405,
            {
              status: 405,
              error: 'Method Not Allowed',
              message: `PUT ${m[1]} with the id in the body updates an item`,
            },
            { allow: 'GET, DELETE' },
          ),
        };
      const body = readJson(req.body) as Record<string, unknown> | undefined;
      const id = body?.id;
      if (typeof id !== 'string' || id === '')
        return {
          ...req,
          answer: jsonAnswer(400, { status: 400, error: 'Bad Request', message: 'the body must carry the id' }),
        };
      const { id: _id, ...rest } = body!;
      return { ...req, url: `${m[1]}/${encodeURIComponent(id)}${url.search}`, body: jsonBody(rest) };
    },
  };
}
