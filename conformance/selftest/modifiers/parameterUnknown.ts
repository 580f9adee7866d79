// Fault: the service does not know one query parameter of the lists and refuses it as unknown,
// as it refuses any unknown parameter (excludePatternDates breaks FILTER-005; page, PAGE-002).
// The proxy renames the parameter, so the target answers its own 400 for an unknown parameter.

import type { FaultModifier } from '../faultProxy.ts';
import { listCollection, withQuery } from '../traffic.ts';

export function parameterUnknown(parameter: string): FaultModifier {
  return {
    name: `parameterUnknown(${parameter})`,
    request(req) {
      if (!listCollection(req)) return req;
      return withQuery(req, (q) => {
        const value = q.get(parameter);
        if (value === null) return;
        q.delete(parameter);
        q.set(`${parameter}Unsupported`, value);
      });
    },
  };
}
