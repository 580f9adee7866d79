// Fault: the service does not copy the property's datatype into an item's category entries
// (breaks ONTO-003).

import type { FaultModifier } from '../faultProxy.ts';
import { mapCategoryEntries } from '../traffic.ts';

export function categoryDatatypeMissing(): FaultModifier {
  return {
    name: 'categoryDatatypeMissing',
    response: (res) =>
      mapCategoryEntries(res, (e) => {
        if (e.datatype === undefined) return e;
        const { datatype: _lost, ...rest } = e;
        return rest;
      }),
  };
}
