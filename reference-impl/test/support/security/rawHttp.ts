import { Agent } from 'undici';

// An HTTP client that sends exactly what it is given: the path as raw bytes (no URL
// normalisation, so `..` segments and broken percent-encoding reach the server as written), any
// headers, any body bytes on any method.

export interface RawRequest {
  method: string;
  /** Appended as is to the base URL's path (`/events?size=%FF`). */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** The parsed body when it is JSON, else undefined. */
  json: unknown;
}

export interface RawClient {
  send(request: RawRequest): Promise<RawAnswer>;
  close(): Promise<void>;
}

export function rawClient(baseUrl: string, options: { timeoutMs?: number } = {}): RawClient {
  const url = new URL(baseUrl);
  const basePath = url.pathname.replace(/\/+$/, '');
  const timeout = options.timeoutMs ?? 20_000;
  // pipelining 0: a fresh connection per request. A connection the server closed after a hostile
  // request (a 431, a 413 before the body was read) must not fail the next, innocent one.
  const agent = new Agent({ headersTimeout: timeout, bodyTimeout: timeout, pipelining: 0 });
  return {
    async send(request) {
      const answer = await agent.request({
        origin: url.origin,
        path: `${basePath}${request.path}`,
        method: request.method as 'GET',
        headers: request.headers ?? {},
        body: request.body,
      });
      const body = Buffer.from(await answer.body.arrayBuffer());
      const type = String(answer.headers['content-type'] ?? '');
      let json: unknown;
      if (/json/i.test(type) && body.length > 0) {
        try {
          json = JSON.parse(body.toString('utf8'));
        } catch {
          json = undefined;
        }
      }
      return { status: answer.statusCode, headers: answer.headers, body, json };
    },
    close: () => agent.close(),
  };
}
