import { NODE_MAX_HEADER_BYTES } from './hostileValues.ts';
import type { RawAnswer } from './rawHttp.ts';
import { errorBodyProblems, responseBodyProblems, specOperations, type SpecOperation } from './specOperations.ts';

// What every answer to any request must satisfy (Schemathesis' not_a_server_error,
// status_code_conformance and response_schema_conformance, as plain functions).
//
// A request is either an operation of the spec (its path matches a template and its method is
// that template's, HEAD counting as GET), and then its status must be one the operation
// documents, or it is none, and then it may get only the answers the spec documents once for
// such requests (DEC-ERR-005): 404 for a path outside the spec, 405 with Allow for another
// method, 204 with Allow for OPTIONS. The one exception on both sides is Node's own 431 for
// headers over its limit, answered before the service sees the request.

/** Where a request lands in the spec: the operations of the path it matches (none: outside the spec). */
export interface Landing {
  /** The operations whose template matches the request's path, any method. */
  onPath: SpecOperation[];
  /** The one of them the request's method asks for (HEAD asks for GET), else undefined. */
  operation: SpecOperation | undefined;
}

function matchesTemplate(template: string, path: string): boolean {
  const want = template.split('/');
  const got = path.split('/');
  if (got.length === want.length + 1 && got.at(-1) === '') got.pop(); // a final slash, as the router allows
  if (got.length !== want.length) return false;
  return want.every((segment, i) => (segment.startsWith('{') ? got[i] !== '' : segment === got[i]));
}

/** The spec's operations for `path` (as sent, relative to the base URL, query allowed) and `method`. */
export function landing(method: string, path: string): Landing {
  const pathOnly = path.split('?')[0]!;
  const onPath = specOperations().filter((op) => matchesTemplate(op.path, pathOnly));
  const wanted = method === 'HEAD' ? 'GET' : method;
  return { onPath, operation: onPath.find((op) => op.method === wanted) };
}

/** Is `answer` Node's own 431 for request headers over its limit (empty body, before the app)? */
function nodeHeaderOverflow(answer: RawAnswer, headerBytes: number): boolean {
  return answer.status === 431 && answer.body.length === 0 && headerBytes > NODE_MAX_HEADER_BYTES - 2048;
}

/** Problems with the answer to a request that is no operation of the spec (DEC-ERR-005); empty when it is one of the documented answers. */
function outsideProblems(method: string, where: Landing, answer: RawAnswer): string[] {
  if (where.onPath.length === 0) {
    return answer.status === 404 ? [] : [`status ${answer.status} for a path outside the spec (expected: 404)`];
  }
  const methods = [...new Set(where.onPath.map((op) => op.method))];
  const expected = method === 'OPTIONS' ? 204 : 405;
  const problems =
    answer.status === expected
      ? []
      : [
          `status ${answer.status} for ${method}, which the spec does not document on this path (expected: ${expected} with Allow: ${methods.join(', ')})`,
        ];
  const allow = String(answer.headers.allow ?? '')
    .split(/,\s*/)
    .filter(Boolean)
    .sort();
  if (answer.status === expected && allow.join() !== [...methods].sort().join())
    problems.push(`Allow: ${String(answer.headers.allow)} (expected the path's methods ${methods.join(', ')})`);
  return problems;
}

export interface AnswerVerdict {
  /** Failures: a 5xx, a status not documented for the request, an error body out of shape, a success body against its schema. */
  problems: string[];
  /** The operation the request was (undefined: no operation of the spec). */
  operation: SpecOperation | undefined;
  /** For a request outside every operation, or Node's 431: which of those documented answers it got. */
  outside: string | undefined;
}

export function checkAnswer(
  request: { method: string; path: string },
  answer: RawAnswer,
  headerBytes: number,
): AnswerVerdict {
  const { method } = request;
  const where = landing(method, request.path);
  const op = where.operation;
  const problems: string[] = [];
  let outside: string | undefined;
  if (answer.status >= 500) problems.push(`server error ${answer.status}`);
  if (nodeHeaderOverflow(answer, headerBytes)) {
    outside = "431 request headers over Node's 16 KiB limit";
  } else if (op !== undefined) {
    if (!op.statuses.has(answer.status))
      problems.push(
        `status ${answer.status} is not documented for ${op.operationId} (documented: ${[...op.statuses].join(', ')})`,
      );
  } else {
    problems.push(...outsideProblems(method, where, answer));
    outside =
      where.onPath.length === 0
        ? '404 path outside the spec'
        : method === 'OPTIONS'
          ? '204 OPTIONS with Allow'
          : '405 method not in the spec, with Allow';
  }
  const emptyByDesign =
    method === 'HEAD' || answer.status === 304 || answer.status === 204 || outside?.startsWith('431') === true;
  if (answer.status >= 400 && !emptyByDesign) {
    if (!/^application\/json/i.test(String(answer.headers['content-type'] ?? '')))
      problems.push(`error answer has Content-Type ${String(answer.headers['content-type'])}`);
    else problems.push(...errorBodyProblems(answer.status, answer.json).map((p) => `error body: ${p}`));
  }
  if (emptyByDesign && answer.status !== 304 && method !== 'HEAD' && answer.body.length > 0)
    problems.push(`a ${answer.status} with a body of ${answer.body.length} bytes`);
  if (
    op !== undefined &&
    answer.status < 300 &&
    op.statuses.has(answer.status) &&
    !emptyByDesign &&
    answer.json !== undefined
  ) {
    problems.push(
      ...responseBodyProblems(op.operationId, answer.status, answer.json).map((p) => `${answer.status} body: ${p}`),
    );
  }
  return { problems, operation: op, outside };
}
