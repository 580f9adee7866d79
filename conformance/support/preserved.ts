// "Every writable field preserved": what a client sent is found again in what the server
// returns. The server may add (ids, timestamps, labels, computed days, defaults such as
// isDefault: false) and normalise where the interface says so (calendarType upper case, a
// SingleDate date as a local timestamp, a blank category value as null), but not drop or
// change what was sent.

export interface Mismatch {
  /** JSON pointer into the sent body. */
  pointer: string;
  sent: unknown;
  received: unknown;
}

/** A local timestamp or date in one canonical form: `YYYY-MM-DDTHH:MM:SS[.fff]`, zero fractions dropped. */
export function canonicalLocal(value: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?$/.exec(value);
  if (!m) return value;
  const fraction = (m[5] ?? '').replace(/0+$/, '');
  return `${m[1]}T${m[2] ?? '00'}:${m[3] ?? '00'}:${m[4] ?? '00'}${fraction ? `.${fraction}` : ''}`;
}

/** Calendar dates: single dates (the interface's local timestamps) and the pattern and exception dates kept in the same form. */
const CALENDAR_DATE =
  /\/(singleDates\/\d+\/date|patternDates\/\d+\/(startdate|enddate)|(opens|closeds|soldouts|cancelleds)\/\d+\/date)$/;

function equalAt(pointer: string, sent: unknown, received: unknown): boolean {
  // A blank category value carries nothing; `null` is how the interface writes "no value".
  if (
    /\/categories\/\d+\/value$/.test(pointer) &&
    typeof sent === 'string' &&
    sent.trim() === '' &&
    (received === null || received === undefined)
  )
    return true;
  if (typeof sent === 'string' && typeof received === 'string') {
    if (/\/calendarType$/.test(pointer)) return sent.toUpperCase() === received.toUpperCase();
    if (CALENDAR_DATE.test(pointer)) return canonicalLocal(sent) === canonicalLocal(received);
  }
  // === also treats 0 and -0 as the same number, as JSON does.
  return sent === received;
}

/**
 * The first place where `received` does not preserve `sent`, or undefined. Arrays: each sent
 * element matches a different received one. `skip`: places not compared (with what they hold).
 */
export function firstMismatch(
  sent: unknown,
  received: unknown,
  pointer = '',
  skip: (pointer: string) => boolean = () => false,
): Mismatch | undefined {
  if (skip(pointer)) return undefined;
  if (Array.isArray(sent)) {
    if (!Array.isArray(received)) return { pointer, sent, received };
    const used = new Set<number>();
    for (const [i, element] of sent.entries()) {
      const match = received.findIndex(
        (r, j) => !used.has(j) && firstMismatch(element, r, `${pointer}/${i}`, skip) === undefined,
      );
      if (match === -1) {
        // Report the closest: the same index when there is one.
        const inner = i < received.length ? firstMismatch(element, received[i], `${pointer}/${i}`, skip) : undefined;
        return inner ?? { pointer: `${pointer}/${i}`, sent: element, received: received[i] };
      }
      used.add(match);
    }
    return undefined;
  }
  if (sent !== null && typeof sent === 'object') {
    if (received === null || typeof received !== 'object' || Array.isArray(received))
      return { pointer, sent, received };
    for (const [key, value] of Object.entries(sent)) {
      const inner = firstMismatch(
        value,
        (received as Record<string, unknown>)[key],
        `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
        skip,
      );
      if (inner) return inner;
    }
    return undefined;
  }
  return equalAt(pointer, sent, received) ? undefined : { pointer, sent, received };
}
