// Fault: the deployment has no upload: POST /assets answers 404 (breaks ASSET-006).

import type { FaultModifier } from '../faultProxy.ts';
import { jsonAnswer, urlOf } from '../traffic.ts';

export function assetUploadMissing(): FaultModifier {
  return {
    name: 'assetUploadMissing',
    request(req) {
      if (req.method !== 'POST' || !/\/assets$/.test(urlOf(req).pathname)) return req;
      return { ...req, answer: jsonAnswer(404, { status: 404, error: 'Not Found', message: 'Not Found' }) };
    },
  };
}
