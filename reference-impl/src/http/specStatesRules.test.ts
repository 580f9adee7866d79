import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createValidatorFactory, loadSpec } from '../../../spec/index.ts';
import { checkPropertyOntology } from '../dictionary/checkOntology.ts';
import { parseInstant } from '../domain/timestamps.ts';

// The spec states every rule the server enforces (issue 30: a spec-driven fuzzer saw "valid data
// rejected"): each rule here is checked against the code that enforces it, so that the two agree
// on every input, not only on the examples.

const { document } = loadSpec();
const validator = createValidatorFactory(document);
const pattern = (name: string) =>
  new RegExp((document as any).components.parameters[name].schema.pattern as string, 'u');

describe('lastupdated: the pattern in the spec', () => {
  const digits = (n: number) => fc.stringMatching(new RegExp(`^\\d{${n}}$`));
  const candidates = fc.oneof(
    fc
      .tuple(
        digits(4),
        digits(2),
        digits(2),
        fc.option(
          fc.tuple(
            fc.constantFrom('T', 't', ' '),
            digits(2),
            digits(2),
            fc.option(
              fc.tuple(digits(2), fc.option(fc.tuple(fc.constantFrom('.', ','), fc.integer({ min: 1, max: 9 })))),
            ),
            fc.option(
              fc.oneof(
                fc.constantFrom('Z', 'z'),
                fc.tuple(fc.constantFrom('+', '-', ' '), digits(2), fc.option(fc.tuple(fc.boolean(), digits(2)))),
              ),
            ),
          ),
        ),
      )
      .map(([y, mo, d, time]) => {
        let text = `${y}-${mo}-${d}`;
        if (time) {
          const [sep, h, mi, sec, zone] = time;
          text += `${sep}${h}:${mi}`;
          if (sec) text += `:${sec[0]}${sec[1] ? `${sec[1][0]}${'7'.repeat(sec[1][1])}` : ''}`;
          if (zone)
            text +=
              typeof zone === 'string'
                ? zone
                : `${zone[0]}${zone[1]}${zone[2] ? `${zone[2][0] ? ':' : ''}${zone[2][1]}` : ''}`;
        }
        return text;
      }),
    fc.string({ maxLength: 12 }),
    fc.constantFrom(
      '0',
      '2026-02-29',
      '2024-02-29',
      '2000-02-29',
      '1900-02-29',
      '2026-04-31',
      ' 2026-01-01 ',
      '2026-01-01T24:00',
    ),
  );

  for (const name of ['LastUpdated', 'AssetsLastUpdated']) {
    it(`when any value is sent as ${name}, then the spec's pattern accepts exactly what the server parses [DEC-LIST-005]`, () => {
      const spec = pattern(name);
      fc.assert(
        fc.property(candidates, (value) => {
          expect(spec.test(value)).toBe(parseInstant(value) !== undefined);
        }),
        { numRuns: 5000 },
      );
    });
  }
});

describe('Property: options by datatype in the spec', () => {
  const validate = validator('/components/schemas/PropertiesOntologyReplacement');
  const datatypes = ['yes', 'yesno', 'choice', 'multichoice', 'freetext', 'integer'] as const;
  const option = (i: number) => ({
    id: `o-${i}`,
    name: `Optie ${i}`,
    propertytranslations: [{ lang: 'nl', text: `Optie ${i}` }],
  });

  it('when a property has any datatype with no, empty or some options, then the spec refuses exactly what the server refuses [DEC-DICT-011]', () => {
    fc.assert(
      fc.property(fc.constantFrom(...datatypes), fc.option(fc.integer({ min: 0, max: 2 })), (datatype, options) => {
        const property: Record<string, unknown> = {
          id: 'p-1',
          name: 'Eigenschap',
          datatype,
          propertytranslations: [{ lang: 'nl', text: 'Eigenschap' }],
        };
        if (options !== null) property.options = Array.from({ length: options }, (_, i) => option(i));
        const doc = {
          propertyCategories: [
            {
              id: 'pc-1',
              name: 'Cat',
              datatype: 'yes',
              propertytranslations: [{ lang: 'nl', text: 'Cat' }],
              properties: [property],
            },
          ],
        };
        expect(validate(doc)).toBe(checkPropertyOntology(doc).length === 0);
      }),
    );
  });
});

describe('AssetUpdate in the spec', () => {
  const validate = validator('/components/schemas/AssetUpdate');
  it('when a body holds a field that is neither editable nor one of the asset read-only fields, then the spec refuses it as the server does [DEC-ASSET-007]', () => {
    expect(validate({ title: 'x', id: 'anything', size: 'any', url: 1 })).toBe(true);
    expect(validate({ title: 'x', colour: 'red' })).toBe(false);
  });
});
