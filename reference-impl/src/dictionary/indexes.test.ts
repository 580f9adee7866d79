import { describe, expect, it } from 'vitest';
import { labelIn, type Labels } from './indexes.ts';

const labels: Labels = {
  dutch: 'Museum (nl)',
  byLang: new Map([
    ['en', 'Museum (en)'],
    ['en-US', 'Museum (en-US)'],
    ['zh', 'Museum (zh)'],
    ['', 'Museum (empty code)'],
  ]),
};

describe('labelIn [DEC-DICT-006]', () => {
  it('when the ontology has the language, then it is that label', () => {
    expect(labelIn(labels, 'en-US')).toBe('Museum (en-US)');
    expect(labelIn(labels, 'en')).toBe('Museum (en)');
  });

  it('when it has only the primary language of a code with a region or script, then it is that one', () => {
    expect(labelIn(labels, 'en-GB')).toBe('Museum (en)');
    expect(labelIn(labels, 'zh-Hant-TW')).toBe('Museum (zh)');
    expect(labelIn(labels, '-GB')).toBe('Museum (empty code)');
  });

  it('when it has neither, then it is the Dutch label', () => {
    expect(labelIn(labels, 'de')).toBe('Museum (nl)');
    expect(labelIn(labels, 'de-AT')).toBe('Museum (nl)');
    expect(labelIn({ dutch: 'Museum (nl)', byLang: new Map() }, '')).toBe('Museum (nl)');
  });
});
