import sanitizeHtml from 'sanitize-html';

// @implements DT-010
// `data` values are plain text on read (DT-010): tags are dropped (with the content of script and
// style), entities decoded, and block boundaries become line breaks so that words do not run together.

const OPTIONS: sanitizeHtml.IOptions = { allowedTags: [], allowedAttributes: {} };
const BLOCK = /<\/?(?:p|div|ul|ol|li|h[1-6]|table|tr|blockquote)\b[^>]*>|<br\s*\/?>/gi;

function stripOnce(text: string): string {
  const escaped = sanitizeHtml(text.replace(BLOCK, '\n$&\n'), OPTIONS);
  // sanitize-html answers HTML text; we want the characters. `&amp;` goes last so that an
  // escaped entity (`&amp;lt;`) decodes to its literal text only.
  return escaped
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

// Text without anything the parser would read as a tag (`<` then a letter, `/`, `!` or `?`) or as
// an entity (`&` then a letter or `#`) comes out of sanitize-html unchanged: skip it. "Tom & Jerry"
// and "a < b" stay on this fast path; stripping costs some 50 µs a value otherwise.
const MARKUP = /<[A-Za-z/!?]|&[A-Za-z#]/;

// Items are read far more often than written, and a value strips the same way every time: keep
// the last results of short values. Cleared whole when full, which is cheap and bounds memory.
const MEMO_LIMIT = 5000;
const MEMO_MAX_LENGTH = 4000;
const memo = new Map<string, string>();

export function stripHtml(text: string): string {
  if (!MARKUP.test(text)) return text;
  const known = memo.get(text);
  if (known !== undefined) return known;
  const stripped = stripFully(text);
  if (text.length <= MEMO_MAX_LENGTH) {
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(text, stripped);
  }
  return stripped;
}

function stripFully(text: string): string {
  // Decoding can reveal markup that was sent escaped (`&lt;script&gt;`): strip until nothing
  // changes, so the answer never holds a tag. Each round peels one level of escaping; past the
  // cap, whatever could still open a tag loses its `<`.
  let current = text;
  for (let round = 0; round < 8; round++) {
    const next = stripOnce(current);
    if (next === current) break;
    current = next;
  }
  current = current.replace(/<(?=[A-Za-z/!?])/g, '');
  return current
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('\n');
}
