// Fault: the size cap of 2000 is enforced before 1 November 2026: a target whose clock says
// October 2026 already answers 400 to an oversized size (breaks LIMIT-002: before that date it
// answers 200 with the first 2000 items). The proxy stands in for the earlier clock by dating
// those answers in October 2026.

import type { FaultModifier } from '../faultProxy.ts';
import { listCollection, urlOf } from '../traffic.ts';

const OCTOBER_2026 = 'Thu, 15 Oct 2026 10:00:00 GMT';

export function sizeCapBeforeItsDate(): FaultModifier {
  return {
    name: 'sizeCapBeforeItsDate',
    response(res, req) {
      if (!listCollection(req) || Number(urlOf(req).searchParams.get('size')) <= 2000) return res;
      return { ...res, headers: { ...res.headers, date: OCTOBER_2026 } };
    },
  };
}
