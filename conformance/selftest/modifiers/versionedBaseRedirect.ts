// Fault: the service moved to a versioned base, /api/v1, and redirects the old /api paths there
// (breaks VER-001: the base address carries no version number and ends in /api).

import type { FaultModifier } from '../faultProxy.ts';
import { urlOf } from '../traffic.ts';

export function versionedBaseRedirect(): FaultModifier {
  return {
    name: 'versionedBaseRedirect',
    request(req) {
      const url = urlOf(req);
      if (url.pathname.startsWith('/api/v1/')) return { ...req, url: req.url.replace('/api/v1/', '/api/') };
      if (!url.pathname.startsWith('/api/') || /\/actuator\//.test(url.pathname)) return req;
      const location = `/api/v1/${url.pathname.slice('/api/'.length)}${url.search}`;
      return { ...req, answer: { status: 308, headers: { location }, body: Buffer.alloc(0) } };
    },
  };
}
