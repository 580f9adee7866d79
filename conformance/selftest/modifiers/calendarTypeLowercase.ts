// Fault: calendarType is answered in lower case, as the client may write it, instead of the
// server's normalised upper-case form (breaks ITEM-020: the server normalises calendarType).

import type { FaultModifier } from '../faultProxy.ts';
import { mapItems } from '../traffic.ts';

export function calendarTypeLowercase(): FaultModifier {
  return {
    name: 'calendarTypeLowercase',
    response(res) {
      return mapItems(res, (item) => {
        const calendar = item.calendar as { calendarType?: unknown } | undefined;
        const type = calendar?.calendarType;
        if (typeof type !== 'string' || type === type.toLowerCase()) return item;
        return { ...item, calendar: { ...calendar, calendarType: type.toLowerCase() } };
      });
    },
  };
}
