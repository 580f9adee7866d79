import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parseIsoTimestamptz } from './parseTimestamptz.ts';
import { skipPostgres, TEST_DATABASE_URL } from '../../test/support/storage/postgresProbe.ts';

// node-postgres' own timestamptz parser (postgres-date): the reference.
const TIMESTAMPTZ = 1184;
const nodePostgres = pg.types.getTypeParser(TIMESTAMPTZ) as (value: string) => Date;

const two = (n: number) => String(n).padStart(2, '0');
// Texts in the form PostgreSQL writes, with every offset form it uses (±HH, ±HH:MM, ±HH:MM:SS for
// historical local mean times) and fractions of 0 to 6 digits.
const timestamptzText = fc
  .record({
    year: fc.integer({ min: 100, max: 9999 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    fraction: fc.oneof(fc.constant(''), fc.stringMatching(/^[0-9]{1,6}$/)),
    sign: fc.constantFrom('+', '-'),
    offsetHours: fc.integer({ min: 0, max: 15 }),
    offsetMinutes: fc.option(fc.integer({ min: 0, max: 59 })),
    offsetSeconds: fc.option(fc.integer({ min: 0, max: 59 })),
  })
  .map(
    (t) =>
      `${String(t.year).padStart(4, '0')}-${two(t.month)}-${two(t.day)} ${two(t.hour)}:${two(t.minute)}:${two(t.second)}` +
      `${t.fraction === '' ? '' : `.${t.fraction}`}${t.sign}${two(t.offsetHours)}` +
      `${t.offsetMinutes === null ? '' : `:${two(t.offsetMinutes)}${t.offsetSeconds === null ? '' : `:${two(t.offsetSeconds)}`}`}`,
  );

describe('parseIsoTimestamptz', () => {
  it('when given a timestamptz text as PostgreSQL writes it, then it is the instant node-postgres reads', () => {
    fc.assert(
      fc.property(timestamptzText, (text) => {
        expect(parseIsoTimestamptz(text)?.getTime()).toBe(nodePostgres(text).getTime());
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['a BC year', '0044-03-15 12:00:00+00 BC'],
    ['a five-digit year', '12026-11-22 12:00:00+00'],
    ['a year below 100', '0099-01-01 00:00:00+00'],
    ['infinity', 'infinity'],
    ['no offset', '2026-11-22 12:00:00'],
    ['a seven-digit fraction', '2026-11-22 12:00:00.1234567+00'],
    ['a letter in the offset', '2026-11-22 12:00:00+0x'],
    ['a letter in the offset minutes', '2026-11-22 12:00:00+01:x0'],
    ['trailing text', '2026-11-22 12:00:00+01:00:00:00'],
  ])('when given %s, then it leaves it to node-postgres (undefined)', (_, text) => {
    expect(parseIsoTimestamptz(text)).toBeUndefined();
  });
});

describe.skipIf(skipPostgres())('parseIsoTimestamptz on PostgreSQL', () => {
  it.each(['UTC', 'Europe/Amsterdam', 'Asia/Kathmandu', 'America/St_Johns'])(
    'when the session time zone is %s, then every stamp PostgreSQL writes reads as the instant it stores',
    async (zone) => {
      const client = new pg.Client({
        connectionString: TEST_DATABASE_URL,
        types: { getTypeParser: () => (value: string) => value } as unknown as pg.CustomTypesConfig,
      });
      await client.connect();
      try {
        await client.query(`SET TimeZone = '${zone}'`);
        // Microsecond stamps over four centuries (local mean times before 1900 have second offsets),
        // and the epoch milliseconds PostgreSQL computes for each, cut as node-postgres cuts.
        const { rows } = await client.query<{ text: string; millis: string }>(`
        SELECT t::text AS text, floor(extract(epoch FROM t) * 1000)::bigint::text AS millis
          FROM (SELECT timestamptz '1700-01-01 00:00:00+00' + (random() * interval '130000 days') + (i * interval '1 microsecond') AS t
                  FROM generate_series(1, 2000) AS i) stamps`);
        for (const { text, millis } of rows) {
          expect({ text, millis: parseIsoTimestamptz(text)?.getTime() }).toEqual({ text, millis: Number(millis) });
        }
      } finally {
        await client.end();
      }
    },
  );
});
