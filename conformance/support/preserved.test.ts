import { describe, expect, it } from 'vitest';
import { canonicalLocal, firstMismatch } from './preserved.ts';

describe('firstMismatch', () => {
  it('when the server adds fields and labels, then what was sent is still preserved', () => {
    const sent = { trcItemCategories: { types: [{ catid: '1.1' }] }, location: { xcoordinate: '4.9' } };
    const received = {
      id: 'x',
      trcItemCategories: {
        types: [{ catid: '1.1', isDefault: false, categoryTranslations: [{ lang: 'nl', label: 'a' }] }],
      },
      location: { xcoordinate: '4.9', ycoordinate: '52' },
    };
    expect(firstMismatch(sent, received)).toBeUndefined();
  });

  it('when a field is dropped or changed, then its pointer is named', () => {
    expect(firstMismatch({ location: { xcoordinate: '4.90' } }, { location: { xcoordinate: '4.9' } })).toEqual({
      pointer: '/location/xcoordinate',
      sent: '4.90',
      received: '4.9',
    });
    expect(
      firstMismatch({ performers: [{ label: 'a' }, { label: 'b' }] }, { performers: [{ label: 'a' }] }),
    ).toMatchObject({ pointer: '/performers/1' });
  });

  it('when array elements come back in another order or with computed ones between, then they still match', () => {
    expect(
      firstMismatch(
        { d: [{ date: '2027-01-02' }, { date: '2027-01-01' }] },
        { d: [{ date: '2027-01-01T00:00:00' }, { date: '2027-01-01T00:00:00' }, { date: '2027-01-02T00:00:00' }] },
      ),
    ).toEqual({ pointer: '/d/0/date', sent: '2027-01-02', received: '2027-01-01T00:00:00' });
    expect(
      firstMismatch(
        { calendar: { singleDates: [{ date: '2027-01-02' }, { date: '2027-01-01T10:00' }] } },
        {
          calendar: {
            singleDates: [
              { date: '2027-01-01T10:00:00' },
              { date: '2027-01-01T12:00:00' },
              { date: '2027-01-02T00:00:00' },
            ],
          },
        },
      ),
    ).toBeUndefined();
  });

  it('when calendarType comes back upper-cased, then it is the same value; another value is not', () => {
    expect(
      firstMismatch({ calendar: { calendarType: 'singledates' } }, { calendar: { calendarType: 'SINGLEDATES' } }),
    ).toBeUndefined();
    expect(
      firstMismatch({ calendar: { calendarType: 'singledates' } }, { calendar: { calendarType: 'NONE' } }),
    ).toBeDefined();
  });

  it('when a blank category value comes back as null, then it is the same (no value); a changed text is not', () => {
    expect(
      firstMismatch(
        { trcItemCategories: { categories: [{ catid: 'p', value: ' ' }] } },
        { trcItemCategories: { categories: [{ catid: 'p', value: null }] } },
      ),
    ).toBeUndefined();
    expect(
      firstMismatch(
        { trcItemCategories: { categories: [{ catid: 'p', value: ' x ' }] } },
        { trcItemCategories: { categories: [{ catid: 'p', value: 'x' }] } },
      ),
    ).toBeDefined();
  });

  it('when a number is 0 or -0, or a string equals a number, then JSON equality decides', () => {
    expect(firstMismatch({ from: -0 }, { from: 0 })).toBeUndefined();
    expect(firstMismatch({ from: 1 }, { from: '1' })).toBeDefined();
  });

  it('when places are skipped, then what they hold is not compared, also inside array elements matched to each other', () => {
    const skip = (pointer: string) => /^\/files\/\d+\/title$/.test(pointer);
    const sent = {
      files: [{ hlink: 'https://a.example/1.jpg', title: { label: 'Een' } }, { hlink: 'https://a.example/2.jpg' }],
    };
    const received = {
      files: [{ hlink: 'https://a.example/2.jpg' }, { hlink: 'https://a.example/1.jpg', title: 'Een' }],
    };
    expect(firstMismatch(sent, received)).toBeDefined();
    expect(firstMismatch(sent, received, '', skip)).toBeUndefined();
    expect(
      firstMismatch(sent, { files: [{ hlink: 'https://a.example/1.jpg', title: 'Een' }] }, '', skip),
    ).toMatchObject({ pointer: '/files/1' });
  });
});

describe('canonicalLocal', () => {
  it('when a date or a short local time is given, then it is padded to seconds and zero fractions dropped', () => {
    expect(canonicalLocal('2027-08-14')).toBe('2027-08-14T00:00:00');
    expect(canonicalLocal('2027-08-14T10:05')).toBe('2027-08-14T10:05:00');
    expect(canonicalLocal('2027-08-14T10:05:01.500')).toBe('2027-08-14T10:05:01.5');
  });
});
