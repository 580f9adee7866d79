import { describe, expect, it } from 'vitest';
import { schemaOrgOf } from './schemaOrg.ts';

const event = (when: { timestart: string; timeend?: string }, date = '2027-08-14') =>
  schemaOrgOf('EVENEMENT', { calendar: { singleDates: [{ date, when: [when] }] } }) as Record<string, unknown>;

describe('schemaOrgOf event dates [DEC-ITEM-030]', () => {
  it('when an event ends later the same day, then endDate is that day (summer offset)', () => {
    expect(event({ timestart: '20:00', timeend: '23:00' })).toMatchObject({ startDate: '2027-08-14T20:00:00+02:00', endDate: '2027-08-14T23:00:00+02:00' });
  });

  it('when an event ends at 24:00, then endDate is the next day at 00:00, after the start', () => {
    expect(event({ timestart: '20:00', timeend: '24:00' })).toMatchObject({ startDate: '2027-08-14T20:00:00+02:00', endDate: '2027-08-15T00:00:00+02:00' });
  });

  it('when an event ends past midnight, then endDate is the next day (winter offset)', () => {
    expect(event({ timestart: '22:00', timeend: '02:00' }, '2027-01-09')).toMatchObject({ startDate: '2027-01-09T22:00:00+01:00', endDate: '2027-01-10T02:00:00+01:00' });
  });
});
