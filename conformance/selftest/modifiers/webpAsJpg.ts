// Fault: the service still has the file type list from before May 2025: a webp file is stored
// as jpg (breaks VER-003: the file type enum includes webp).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonBody, readJson } from '../faultProxy.ts';
import { COLLECTIONS, urlOf } from '../traffic.ts';

const WRITE_RE = new RegExp(`/(${COLLECTIONS.join('|')})(/[^/]+)?$`);

export function webpAsJpg(): FaultModifier {
  return {
    name: 'webpAsJpg',
    request(req) {
      if ((req.method !== 'POST' && req.method !== 'PUT') || !WRITE_RE.test(urlOf(req).pathname)) return req;
      const body = readJson(req.body) as { files?: { filetype?: unknown }[] } | undefined;
      if (!body?.files?.some((f) => f.filetype === 'webp')) return req;
      const files = body.files.map((f) => (f.filetype === 'webp' ? { ...f, filetype: 'jpg' } : f));
      return { ...req, body: jsonBody({ ...body, files }) };
    },
  };
}
