// A recorded request/response pair: the evidence a failure carries into the reports.
// Everything stored here is already redacted (see redact.ts).

export interface SpecProblem {
  /** What was checked: the operation lookup, the status, the content type, a header or the body. */
  kind: 'operation' | 'status' | 'content-type' | 'header' | 'body';
  message: string;
  /** JSON pointer into the body, or `header/<name>`, `status`, `content-type`. */
  pointer?: string;
  received?: unknown;
  expected?: unknown;
  /** Where in the bundled spec the expectation comes from (a JSON pointer into openapi.json). */
  specPointer?: string;
}

export interface RecordedMessage {
  headers: Record<string, string>;
  /** Body text, cut to the excerpt limit. */
  body?: string;
  bodyBytes: number;
  truncated: boolean;
}

export interface Exchange {
  seq: number;
  startedAt: string;
  durationMs: number;
  request: RecordedMessage & { method: string; url: string };
  response?: RecordedMessage & { status: number };
  /** Network-level failure (no response). */
  error?: string;
  /** Spec conformance problems found in the response. */
  problems?: SpecProblem[];
  note?: string;
}

export const DEFAULT_EXCERPT_CHARS = 4096;

export function excerpt(text: string, limit = DEFAULT_EXCERPT_CHARS): { body: string; truncated: boolean } {
  if (text.length <= limit) return { body: text, truncated: false };
  return { body: `${text.slice(0, limit)}…`, truncated: true };
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * A curl command that repeats the request. Redacted credentials appear as `$CONFORMANCE_…`
 * variables, so the line can be pasted into a shell that has them set.
 */
export function toCurl(exchange: Pick<Exchange, 'request'>): string {
  const { method, url, headers, body, truncated } = exchange.request;
  const parts = ['curl', '-sS', '-i'];
  if (method !== 'GET') parts.push('-X', method);
  parts.push(shellQuote(url));
  for (const [name, value] of Object.entries(headers)) {
    if (['host', 'content-length', 'connection', 'user-agent'].includes(name.toLowerCase())) continue;
    // Double quotes so that $CONFORMANCE_TOKEN expands.
    parts.push('-H', value.includes('$CONFORMANCE_') ? `"${name}: ${value}"` : shellQuote(`${name}: ${value}`));
  }
  if (body !== undefined && body !== '')
    parts.push('--data-binary', shellQuote(truncated ? `${body} (truncated)` : body));
  return parts.join(' ');
}
