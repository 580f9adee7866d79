import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseValue, readBoolean } from './normaliseValue.ts';
import { stripHtml } from './stripHtml.ts';

describe('normaliseValue', () => {
  it('when a yes category is present without value or with any value but false, then it reads True [DT-001]', () => {
    expect(normaliseValue('yes', undefined)).toBe('True');
    expect(normaliseValue('yes', null)).toBe('True');
    expect(normaliseValue('yes', 'true')).toBe('True');
    expect(normaliseValue('yes', 'whatever')).toBe('True');
  });

  it('when a yes category says false, then it reads False [DT-001]', () => {
    expect(normaliseValue('yes', 'false')).toBe('False');
    expect(normaliseValue('yes', 'False')).toBe('False');
    expect(normaliseValue('yes', false)).toBe('False');
  });

  it('when a yesno value is true or false in any case, then it reads True or False [DT-002]', () => {
    expect(normaliseValue('yesno', 'true')).toBe('True');
    expect(normaliseValue('yesno', 'TRUE')).toBe('True');
    expect(normaliseValue('yesno', true)).toBe('True');
    expect(normaliseValue('yesno', 'false')).toBe('False');
    expect(normaliseValue('yesno', ' False ')).toBe('False');
    expect(normaliseValue('yesno', 'ja')).toBe('True');
    expect(normaliseValue('yesno', 'nee')).toBe('False');
  });

  it('when a yesno value is not a boolean, then it is returned as sent', () => {
    expect(normaliseValue('yesno', 'misschien')).toBe('misschien');
  });

  it('when a nullableyesno value is true, false or absent, then it reads True, False or null [DT-003]', () => {
    expect(normaliseValue('nullableyesno', 'true')).toBe('True');
    expect(normaliseValue('nullableyesno', 'false')).toBe('False');
    expect(normaliseValue('nullableyesno', null)).toBeNull();
    expect(normaliseValue('nullableyesno', undefined)).toBeNull();
    expect(normaliseValue('nullableyesno', '  ')).toBeNull();
  });

  it('when an integer is sent with sign, zeros, spaces or as a number, then it reads as a canonical whole number string [DT-007]', () => {
    expect(normaliseValue('integer', '42')).toBe('42');
    expect(normaliseValue('integer', ' +007 ')).toBe('7');
    expect(normaliseValue('integer', '-12')).toBe('-12');
    expect(normaliseValue('integer', 12)).toBe('12');
    expect(normaliseValue('integer', '123456789012345678901234567890')).toBe('123456789012345678901234567890');
  });

  it('when an integer value is not a whole number, then it is returned as sent', () => {
    expect(normaliseValue('integer', '3.5')).toBe('3.5');
    expect(normaliseValue('integer', 'veel')).toBe('veel');
  });

  it('when a decimal uses a Dutch decimal comma, then it reads with a dot; otherwise digits are kept [DT-008]', () => {
    expect(normaliseValue('decimal', '3,5')).toBe('3.5');
    expect(normaliseValue('decimal', '3.50')).toBe('3.50');
    expect(normaliseValue('decimal', 2.25)).toBe('2.25');
    expect(normaliseValue('decimal', '1.234,5')).toBe('1.234,5');
  });

  it('when a date is sent, then the ISO date string is kept [DT-009]', () => {
    expect(normaliseValue('date', '2024-05-01')).toBe('2024-05-01');
    expect(normaliseValue('date', ' 2024-05-01 ')).toBe('2024-05-01');
  });

  it('when data holds HTML, then tags are stripped and the text kept [DT-010]', () => {
    expect(normaliseValue('data', '<p>Ingang <b>links</b></p><p>Lift aanwezig</p>')).toBe(
      'Ingang links\nLift aanwezig',
    );
    expect(normaliseValue('data', 'geen html')).toBe('geen html');
  });

  it('when email and phone values are sent, then they are kept, trimmed [DT-012] [DT-013]', () => {
    expect(normaliseValue('email', ' info@example.nl ')).toBe('info@example.nl');
    expect(normaliseValue('phone', '+31 20 123 4567')).toBe('+31 20 123 4567');
  });

  it('when freetext and url values are sent, then they are kept exactly [DT-006] [DT-011]', () => {
    expect(normaliseValue('freetext', '  Let op: trap  ')).toBe('  Let op: trap  ');
    expect(normaliseValue('url', 'https://example.nl/')).toBe('https://example.nl/');
  });

  it('when a value is normalised twice, then the second time changes nothing', () => {
    const samples: Array<[Parameters<typeof normaliseValue>[0], string]> = [
      ['yes', 'x'],
      ['yesno', 'ja'],
      ['nullableyesno', 'false'],
      ['integer', '+01'],
      ['decimal', '3,5'],
      ['data', '<i>a</i> &amp; b'],
      ['date', ' 2024-01-01'],
    ];
    for (const [datatype, raw] of samples) {
      const once = normaliseValue(datatype, raw);
      expect(normaliseValue(datatype, once)).toBe(once);
    }
  });

  it('readBoolean knows only clear spellings', () => {
    expect(readBoolean('Yes')).toBe(true);
    expect(readBoolean('0')).toBe(false);
    expect(readBoolean('onbekend')).toBeUndefined();
  });
});

describe('stripHtml', () => {
  it('when text holds entities, then they are decoded to characters [DT-010]', () => {
    expect(stripHtml('Tom &amp; Jerry &lt;3')).toBe('Tom & Jerry <3');
    expect(stripHtml('caf&eacute;')).toBe('café');
  });

  it('when scripts and styles are present, then their content goes too [DT-010]', () => {
    expect(stripHtml('<script>alert(1)</script><style>p{}</style>ok')).toBe('ok');
  });

  it('when markup was sent escaped, then it is still not returned as markup [DT-010]', () => {
    expect(stripHtml('&lt;script&gt;alert(1)&lt;/script&gt;veilig')).toBe('veilig');
    expect(stripHtml('&lt;b&gt;vet&lt;/b&gt;')).toBe('vet');
  });

  it('when line breaks and list items separate words, then they become line breaks', () => {
    expect(stripHtml('a<br>b<ul><li>c</li><li>d</li></ul>')).toBe('a\nb\nc\nd');
  });

  it('when markup is escaped many times over, then still no tag comes out [DT-010]', () => {
    let escaped = '<b>vet</b>';
    for (let i = 0; i < 12; i++) escaped = escaped.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    expect(stripHtml(escaped)).not.toMatch(/<[A-Za-z/!?]/);
  });

  it('for any text, the result holds no tag and stripping it again changes nothing [DT-010]', () => {
    const piece = fc.constantFrom(
      '<',
      '>',
      '&',
      ';',
      'amp',
      'lt',
      'gt',
      '#39',
      '<b>',
      '</p>',
      '<br>',
      '<script>',
      'a',
      ' ',
      '\n',
      'é',
      '"',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 30 }).map((parts) => parts.join('')),
        (text) => {
          const once = stripHtml(text);
          expect(once).not.toMatch(/<[A-Za-z/!?]/);
          expect(stripHtml(once)).toBe(once);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('when text compares with < and >, then those stay', () => {
    expect(stripHtml('a < b and c > d')).toBe('a < b and c > d');
  });
});
