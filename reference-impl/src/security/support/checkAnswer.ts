import { NODE_MAX_HEADER_BYTES } from './hostileValues.ts';
import type { RawAnswer } from './rawHttp.ts';
import { errorBodyProblems, responseBodyProblems, specOperations, type SpecOperation } from './specOperations.ts';

// What every answer to any request must satisfy (Schemathesis' not_a_server_error,
// status_code_conformance and response_schema_conformance, as plain functions).

/**
 * Statuses the app gives on any path, before an operation is chosen: the reason when `answer` is
 * one of them, else undefined. Where an operation does not document such a status, that is a spec
 * gap (reported, not failed).
 */
export function genericStatus(answer: RawAnswer, method: string, headerBytes: number): string | undefined {
  const message = typeof (answer.json as { message?: unknown } | undefined)?.message === 'string' ? (answer.json as { message: string }).message : '';
  if (answer.status === 404 && message.startsWith('No route')) return '404 unknown route';
  if (answer.status === 405) return '405 method not allowed on a known path';
  // Express answers OPTIONS on a known path itself, with the allowed methods; no data, no auth needed.
  if (answer.status === 200 && method === 'OPTIONS' && typeof answer.headers.allow === 'string') return '200 OPTIONS with Allow (the router\'s own answer)';
  if (answer.status === 413 && message.startsWith('Request body exceeds')) return '413 JSON body over 1 MiB (DEC-ERR-003)';
  if (answer.status === 400 && (message.startsWith('Request body is not valid JSON') || message === 'Request body was aborted')) return '400 body is not JSON (DEC-ERR-003)';
  if (answer.status === 400 && /^unsupported (charset|content encoding)/.test(message)) return '400 unsupported charset or content coding of a JSON body (DEC-ERR-003)';
  if (answer.status === 400 && message.startsWith('Failed to decode param')) return '400 path segment is not percent-encoded UTF-8';
  // Node's HTTP parser answers before the app sees the request: 431 with an empty body.
  if (answer.status === 431 && headerBytes > NODE_MAX_HEADER_BYTES - 2048) return '431 request headers over Node\'s 16 KiB limit';
  return undefined;
}

export interface AnswerVerdict {
  /** Failures: a 5xx, an undocumented non-generic status, an error body out of shape, a success body against its schema. */
  problems: string[];
  /** A generic status the operation does not document. */
  gap: string | undefined;
}

/**
 * The operation a request with `method` on `op`'s path is: `op` itself, the path's operation of
 * that method (POST on a list path is the create), the GET for a HEAD, or undefined (405).
 */
export function operationFor(op: SpecOperation, method: string): SpecOperation | undefined {
  const wanted = method === 'HEAD' ? 'GET' : method;
  if (op.method === wanted) return op;
  return specOperations().find((other) => other.path === op.path && other.method === wanted);
}

export function checkAnswer(requested: SpecOperation, method: string, answer: RawAnswer, headerBytes: number): AnswerVerdict {
  const problems: string[] = [];
  let gap: string | undefined;
  const resolved = operationFor(requested, method);
  const op = resolved ?? requested;
  const sameOperation = resolved !== undefined;
  if (answer.status >= 500) problems.push(`server error ${answer.status}`);
  const documented = sameOperation && op.statuses.has(answer.status);
  if (!documented) {
    const generic = genericStatus(answer, method, headerBytes);
    if (generic === undefined) problems.push(`status ${answer.status} is not documented for ${op.operationId} (documented: ${[...op.statuses].join(', ')})`);
    else if (sameOperation) gap = generic;
  }
  const emptyByDesign = method === 'HEAD' || answer.status === 304 || answer.status === 204 || (answer.status === 431 && answer.body.length === 0);
  if (answer.status >= 400 && !emptyByDesign) {
    if (!/^application\/json/i.test(String(answer.headers['content-type'] ?? ''))) problems.push(`error answer has Content-Type ${String(answer.headers['content-type'])}`);
    else problems.push(...errorBodyProblems(answer.status, answer.json).map((p) => `error body: ${p}`));
  }
  if (answer.status < 300 && documented && !emptyByDesign && answer.json !== undefined) {
    problems.push(...responseBodyProblems(op.operationId, answer.status, answer.json).map((p) => `${answer.status} body: ${p}`));
  }
  return { problems, gap };
}
