// Instants of Europe/Amsterdam wall-clock times, for the interface's dated rules
// ("from 1 November 2026 (Europe/Amsterdam)").

const ZONE = 'Europe/Amsterdam';

/** Offset of Amsterdam from UTC at `instant`, in milliseconds. */
function offsetAt(instant: number): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: ZONE,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant at which Amsterdam's clocks show `year-month-day hour:00`. */
export function amsterdamTime(year: number, month: number, day: number, hour = 0): Date {
  const wall = Date.UTC(year, month - 1, day, hour);
  let instant = wall - offsetAt(wall);
  instant = wall - offsetAt(instant); // second pass settles it near a DST change
  return new Date(instant);
}

/** 1 November 2026 00:00 Europe/Amsterdam: from then on, size above 2000 is a 400 (ERR-001, LIMIT-003). */
export const SIZE_CAP_ENFORCED_FROM = amsterdamTime(2026, 11, 1);
