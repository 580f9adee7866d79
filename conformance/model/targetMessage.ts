// The target's own words when it refused a request: the `message` of an error body (the spec's
// error shape, DEC-ERR-001), else a field other shapes use, else a short plain-text body. A
// failure that follows a refused setup step shows them, so the vendor sees why, not a guess.

import type { Exchange } from './exchange.ts';

const MAX_CHARS = 280;
const FIELDS = ['message', 'detail', 'error_description', 'title', 'error'] as const;

function cut(text: string): string {
  const line = text.trim().replace(/\s+/g, ' ');
  return line.length > MAX_CHARS ? `${line.slice(0, MAX_CHARS)}…` : line;
}

function fromJson(body: string): string | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    // A body cut to the excerpt limit is no longer JSON: take the message member as written.
    const quoted = /"message"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(body)?.[1];
    return quoted === undefined ? undefined : cut(quoted.replace(/\\(.)/g, '$1'));
  }
  if (typeof doc === 'string' && doc.trim() !== '') return cut(doc);
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return undefined;
  const record = doc as Record<string, unknown>;
  for (const field of FIELDS) {
    const value = record[field];
    if (typeof value === 'string' && value.trim() !== '') return cut(value);
  }
  const details = Array.isArray(record.details) ? (record.details as unknown[]) : [];
  const first = details.find(
    (d): d is { message: string } => typeof (d as { message?: unknown })?.message === 'string',
  );
  return first ? cut(first.message) : undefined;
}

/** What the target said in an error answer (4xx/5xx), or undefined when it said nothing readable. */
export function targetMessage(exchange: Pick<Exchange, 'response'>): string | undefined {
  const response = exchange.response;
  if (!response || response.status < 400 || !response.body) return undefined;
  const type = Object.entries(response.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  if (/json/i.test(type) || /^\s*[{["]/.test(response.body)) return fromJson(response.body);
  if (/^text\/plain/i.test(type)) return cut(response.body);
  return undefined;
}

/** The first refused exchange of a failure that carries the target's words, and those words. */
export function firstRefusal(exchanges: readonly Exchange[]): { exchange: Exchange; message: string } | undefined {
  for (const exchange of exchanges) {
    const message = targetMessage(exchange);
    if (message !== undefined) return { exchange, message };
  }
  return undefined;
}
