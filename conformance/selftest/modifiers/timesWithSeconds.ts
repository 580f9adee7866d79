// Fault: the times of a calendar's dates are answered with seconds, "10:00:00" instead of "10:00"
// (breaks ITEM-019: when[] holds timestart and timeend as HH:MM).

import type { FaultModifier } from '../faultProxy.ts';
import { mapItems } from '../traffic.ts';

type Slot = { timestart?: unknown; timeend?: unknown };
type Day = { when?: Slot[] };
const withSeconds = (t: unknown) => (typeof t === 'string' && /^\d\d:\d\d$/.test(t) ? `${t}:00` : t);

export function timesWithSeconds(): FaultModifier {
  return {
    name: 'timesWithSeconds',
    response(res) {
      return mapItems(res, (item) => {
        const calendar = item.calendar as { singleDates?: Day[] } | undefined;
        if (!calendar?.singleDates?.some((d) => (d.when ?? []).length > 0)) return item;
        const singleDates = calendar.singleDates.map((d) =>
          d.when
            ? {
                ...d,
                when: d.when.map((w) => ({
                  ...w,
                  timestart: withSeconds(w.timestart),
                  timeend: withSeconds(w.timeend),
                })),
              }
            : d,
        );
        return { ...item, calendar: { ...calendar, singleDates } };
      });
    },
  };
}
