// The mock's front door: an HTTP server on the address the user asked for, in front of Prism on
// an internal port. It serves every path under `/api`, as the interface's base URL does, and
// without it, as Prism's users know it; and it makes the one answer whose example depends on the
// request say what was asked (consistentRejection).
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const BASE_PATH = '/api';

/** The size rejection's message, as the spec's `sizeCap` example writes it. */
const SIZE_CAP = /^size must not exceed (\d+) \(requested: [^)]*\)$/;

type Violation = { location?: unknown[]; code?: string; message?: string };
type ErrorBody = { status?: number; error?: string; message?: string; details?: unknown };

/** The path Prism serves for a request path: `/api/events` and `/events` are both `/events`. */
export function prismPath(url: string): string {
  if (url === BASE_PATH || url.startsWith(`${BASE_PATH}?`)) return `/${url.slice(BASE_PATH.length)}`;
  return url.startsWith(`${BASE_PATH}/`) ? url.slice(BASE_PATH.length) : url;
}

/**
 * Prism answers every invalid list request with the first example of its 400, the size rejection
 * of `size=5000`. This names the size asked for when the size is what was refused, and otherwise
 * answers the general error shape with Prism's own findings (its `sl-violations` header).
 */
export function consistentRejection(
  body: ErrorBody,
  violations: readonly Violation[],
  query: URLSearchParams,
): ErrorBody {
  const cap = typeof body.message === 'string' ? SIZE_CAP.exec(body.message) : null;
  if (!cap) return body;
  const onSize = (v: Violation) => Array.isArray(v.location) && v.location.join('/') === 'request/query/size';
  const size = query.get('size');
  if (size !== null && /^[0-9]+$/.test(size) && violations.some((v) => onSize(v) && v.code === 'maximum'))
    return { ...body, message: `size must not exceed ${cap[1]} (requested: ${size})` };
  const found = violations.filter((v) => typeof v.message === 'string');
  return {
    status: 400,
    error: 'Bad Request',
    message: found.map((v) => v.message).join('; ') || 'Bad Request',
    ...(found.length > 0
      ? {
          details: found.map((v) => ({
            pointer: Array.isArray(v.location) ? v.location.slice(1).join('/') : '',
            message: String(v.message),
          })),
        }
      : {}),
  };
}

function violationsOf(headers: IncomingHttpHeaders): Violation[] {
  const raw = headers['sl-violations'];
  if (typeof raw !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? (parsed as Violation[]) : [];
  } catch {
    return [];
  }
}

export type FrontOptions = { port: number; host: string; prism: { host: string; port: number } };
export type RunningFront = { url: string; server: Server; close: () => Promise<void> };

/** Listens on `host:port` and passes every request on to Prism. */
export async function startFront(options: FrontOptions): Promise<RunningFront> {
  const server = createServer((req, res) => {
    const url = prismPath(req.url ?? '/');
    const upstream = request(
      { host: options.prism.host, port: options.prism.port, method: req.method, path: url, headers: req.headers },
      (answer) => {
        const json = String(answer.headers['content-type'] ?? '').includes('json');
        if (answer.statusCode !== 400 || !json) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          let text = Buffer.concat(chunks).toString('utf8');
          try {
            const query = new URL(url, 'http://mock').searchParams;
            text = JSON.stringify(consistentRejection(JSON.parse(text), violationsOf(answer.headers), query));
          } catch {
            // not JSON after all: passed on as Prism wrote it
          }
          const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(text)) };
          delete headers['transfer-encoding'];
          res.writeHead(400, headers);
          res.end(text);
        });
      },
    );
    upstream.on('error', (error) => {
      if (res.headersSent) return void res.destroy();
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 502, error: 'Bad Gateway', message: `Prism did not answer: ${error.message}` }));
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    server,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
