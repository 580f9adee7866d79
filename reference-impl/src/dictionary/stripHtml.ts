import sanitizeHtml from 'sanitize-html';

// `data` values are plain text on read (DT-010): tags are dropped (with the content of script and
// style), entities decoded, and block boundaries become line breaks so that words do not run together.

const OPTIONS: sanitizeHtml.IOptions = { allowedTags: [], allowedAttributes: {} };
const BLOCK = /<\/?(?:p|div|ul|ol|li|h[1-6]|table|tr|blockquote)\b[^>]*>|<br\s*\/?>/gi;

function stripOnce(text: string): string {
  const escaped = sanitizeHtml(text.replace(BLOCK, '\n$&\n'), OPTIONS);
  // sanitize-html answers HTML text; we want the characters. `&amp;` goes last so that an
  // escaped entity (`&amp;lt;`) decodes to its literal text only.
  return escaped
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

export function stripHtml(text: string): string {
  if (!/[<&]/.test(text)) return text;
  // Decoding can reveal markup that was sent escaped (`&lt;script&gt;`): strip until nothing
  // changes, so the answer never holds a tag. Three rounds cover double escaping.
  let current = text;
  for (let round = 0; round < 3; round++) {
    const next = stripOnce(current);
    if (next === current) break;
    current = next;
  }
  return current.split('\n').map((line) => line.trim()).filter((line) => line !== '').join('\n');
}
