// The text of each item of a list page, cut from the page as received, so that a store can keep
// or write the item's JSON without serialising the parsed object again.

const QUOTE = 0x22,
  BACKSLASH = 0x5c,
  OPEN_OBJECT = 0x7b,
  CLOSE_OBJECT = 0x7d,
  OPEN_ARRAY = 0x5b,
  CLOSE_ARRAY = 0x5d;

/**
 * The text of each object or array element of the JSON array `text`, in order; undefined when the
 * array holds anything else (then no element's text is given). Reads only strings and brackets:
 * `text` must already be known to be JSON (JSON.parse accepted it).
 */
export function elementTexts(text: string): string[] | undefined {
  const elements: string[] = [];
  const n = text.length;
  let depth = 0,
    start = 0,
    at = 0;
  // Whether the array's current element began with a bracket.
  let inElement = false;
  while (at < n) {
    const c = text.charCodeAt(at);
    if (c === QUOTE) {
      if (depth === 1) return undefined; // a string element
      at = stringEnd(text, at);
      continue;
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth++;
      if (depth === 2) {
        start = at;
        inElement = true;
      }
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth === 2) {
        elements.push(text.slice(start, at + 1));
        inElement = false;
      }
      depth--;
    } else if (depth === 1 && !inElement && !isSeparator(c)) {
      return undefined; // a number or literal element
    }
    at++;
  }
  return elements;
}

/** Whitespace or the comma between elements. */
const isSeparator = (c: number): boolean => c === 0x2c || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** The index after the string opened by the quote at `at`. */
function stringEnd(text: string, at: number): number {
  for (;;) {
    const end = text.indexOf('"', at + 1);
    if (end < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end + 1;
    at = end;
  }
}
