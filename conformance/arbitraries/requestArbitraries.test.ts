import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { filterCombination, toQuery } from './filterCombination.ts';
import { invalidBody } from './invalidBody.ts';
import { invalidQuery } from './invalidQuery.ts';

const KNOWN = [
  'size',
  'page',
  'sortField',
  'sortOrder',
  'lastupdated',
  'wfstatus',
  'published',
  'trcid',
  'excludePatternDates',
];

describe('invalidQuery', () => {
  it("when a case is generated, then its value is outside the parameter's schema, or the parameter is unknown", () => {
    fc.assert(
      fc.property(invalidQuery({ collection: '/locations' }), ({ query, decision }) => {
        const [[name, value]] = Object.entries(query) as [[string, string]];
        expect(name).not.toBe('excludePatternDates');
        expect(value).not.toBe('');
        if (!KNOWN.includes(name)) {
          expect(decision).toBe('DEC-LIST-008');
          return;
        }
        if (name === 'size') {
          expect(/^\d+$/.test(value) && Number(value) >= 1).toBe(false);
          return;
        }
        if (name === 'page') {
          expect(/^\d+$/.test(value)).toBe(false);
          return;
        }
        if (name === 'sortOrder') {
          expect(['asc', 'desc']).not.toContain(value.toLowerCase());
          return;
        }
        if (name === 'published') {
          expect(['true', 'false']).not.toContain(value);
          return;
        }
        if (name === 'wfstatus') {
          expect(
            value
              .split(',')
              .every((s) => ['draft', 'readyforvalidation', 'approved', 'rejected', 'archived', 'deleted'].includes(s)),
          ).toBe(false);
          return;
        }
        if (name === 'lastupdated') {
          expect(
            /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(value) &&
              !Number.isNaN(Date.parse(value)) &&
              Number(value.slice(5, 7)) <= 12 &&
              !/T(2[4-9]|[3-9])|:[6-9]\d|\+2[5-9]/.test(value) &&
              !/-02-3/.test(value),
          ).toBe(false);
          return;
        }
        expect(name).toBe('sortField');
      }),
      { numRuns: 300, seed: 4 },
    );
  });
});

describe('invalidBody', () => {
  it('when object bodies are generated, then decorate is applied to each (the run tag reaches the target)', () => {
    fc.assert(
      fc.property(
        invalidBody({ entitytype: 'LOCATIE', decorate: (b) => ({ trcid: 'ctf-tagged', ...b }) }),
        ({ text, contentType, decision }) => {
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            {
              expect(decision).toBe('DEC-ERR-003');
              return;
            }
          }
          if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
            expect((parsed as { trcid?: string }).trcid).toBe('ctf-tagged');
          else expect(decision).toBe('DEC-ERR-001');
          if (contentType !== 'application/json') expect(decision).toBe('DEC-ERR-003');
        },
      ),
      { numRuns: 200, seed: 5 },
    );
  });
});

describe('filterCombination', () => {
  it('when combinations are generated, then they use only the given trcids and stamps (± 1 ms) and serialise wfstatus comma-separated', () => {
    const stamps = ['2026-11-20T08:30:00.100Z', '2026-11-20T08:30:00.200Z'];
    const allowed = new Set(stamps.flatMap((s) => [-1, 0, 1].map((d) => new Date(Date.parse(s) + d).toISOString())));
    fc.assert(
      fc.property(filterCombination({ trcids: ['a', 'b'], stamps }), (combo) => {
        if (combo.trcid !== undefined) expect(['a', 'b']).toContain(combo.trcid);
        if (combo.lastupdated !== undefined) expect(allowed.has(combo.lastupdated)).toBe(true);
        if (combo.wfstatus) expect(toQuery(combo).wfstatus).toBe(combo.wfstatus.join(','));
      }),
      { numRuns: 200, seed: 6 },
    );
  });
});
