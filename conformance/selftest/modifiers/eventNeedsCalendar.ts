// Fault: an event written without a calendar is refused with 400, as if the calendar were required
// (breaks ITEM-021: on write every TRCItem field is optional; an event is only expected to have one).

import type { FaultModifier } from '../faultProxy.ts';
import { readJson } from '../faultProxy.ts';
import { jsonAnswer, urlOf } from '../traffic.ts';

export function eventNeedsCalendar(): FaultModifier {
  return {
    name: 'eventNeedsCalendar',
    request(req) {
      if (req.method !== 'POST' || !/\/events$/.test(urlOf(req).pathname)) return req;
      const draft = readJson(req.body) as { calendar?: unknown } | undefined;
      if (draft === undefined || draft.calendar !== undefined) return req;
      return {
        ...req,
        answer: jsonAnswer(400, { status: 400, error: 'Bad Request', message: 'calendar is required for an event' }),
      };
    },
  };
}
