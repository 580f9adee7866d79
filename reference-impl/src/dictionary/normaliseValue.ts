import { stripHtml } from './stripHtml.ts';
import type { Datatype } from '../domain/ontology.ts';

// @implements DT-001
// How a stored `value` reads back, by datatype (the interface's datatype table, DT-001..013).
// It runs on every read, not on write: the stored value stays as sent (ONTO-004), so a change of
// a property's datatype or of these rules applies to existing items at once. Every rule is
// idempotent. A value that cannot be interpreted is returned as sent (trimmed) rather than
// dropped: the read never loses what a writer stored.

const TRUE_WORDS = new Set(['true', '1', 'yes', 'ja', 'j', 'y']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'nee', 'n']);

/** `true`/`false` in the spellings feeds use, `undefined` when neither. */
export function readBoolean(value: string): boolean | undefined {
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
}

/** A JSON scalar as the string the interface stores; `null` for absent and blank. */
export function valueAsString(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

const INTEGER = /^[+-]?\d+$/;
const DECIMAL_COMMA = /^[+-]?\d+,\d+$/;

function normaliseInteger(text: string): string {
  // Canonical form: no plus sign, no leading zeros ("+007" → "7"); BigInt keeps any length exact.
  return INTEGER.test(text) ? BigInt(text).toString() : text;
}

function normaliseDecimal(text: string): string {
  // A Dutch decimal comma ("3,5") is unambiguous when it is the only separator; digits are kept
  // as sent otherwise ("3.50" stays "3.50": trailing zeros can carry meaning).
  if (DECIMAL_COMMA.test(text)) return text.replace(',', '.');
  return text;
}

// @implements DT-002, DT-003, DT-004, DT-005, DT-007, DT-008, DT-009, DT-012, DT-013
export function normaliseValue(datatype: Datatype, raw: unknown): string | null {
  const value = valueAsString(raw);
  switch (datatype) {
    case 'yes':
      // A presence flag: the category being there means true, unless it explicitly says false.
      return value !== null && readBoolean(value) === false ? 'False' : 'True';
    case 'yesno':
    case 'nullableyesno': {
      if (value === null) return null;
      const flag = readBoolean(value);
      return flag === undefined ? value.trim() : flag ? 'True' : 'False';
    }
    case 'integer':
      return value === null ? null : normaliseInteger(value.trim());
    case 'decimal':
      return value === null ? null : normaliseDecimal(value.trim());
    case 'date':
    case 'email':
    case 'phone':
      return value === null ? null : value.trim();
    case 'data':
      return value === null ? null : stripHtml(value);
    case 'freetext':
    case 'url':
    case 'choice':
    case 'multichoice':
      return value;
  }
}
