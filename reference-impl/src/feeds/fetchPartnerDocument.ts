import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import { MiB, MINUTE, SECOND } from '../config.ts';
import { parseJson } from '../../../spec/json.ts';

// One GET of a partner's HTTPS endpoint (FEED-008) with every limit a remote party must not be
// able to stretch: connect, header and body timeouts, a total deadline, and a byte limit.
// Redirects are not followed (undici's request does not), so a 3xx is a failed fetch: the
// configured URL is the partner's endpoint. The URL is operator configuration, not client
// input, so no address policy applies (unlike webhook callback URLs).

export interface FetchLimits {
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  /** Longest silence between two body chunks. */
  bodyTimeoutMs: number;
  /** The whole fetch, body included. */
  totalTimeoutMs: number;
  maxBytes: number;
}

const DEFAULT_FETCH_LIMITS: FetchLimits = {
  connectTimeoutMs: 10 * SECOND,
  headersTimeoutMs: 30 * SECOND,
  bodyTimeoutMs: 30 * SECOND,
  totalTimeoutMs: 2 * MINUTE,
  maxBytes: 50 * MiB,
};

/** A fetch that produced no usable document; `message` is written into the run's errors. */
export class FeedFetchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FeedFetchError';
  }
}

export interface FetchPartnerOptions {
  /** Extra trusted certificate authorities (PEM), added to Node's default roots. */
  ca?: string;
  limits?: Partial<FetchLimits>;
}

/** The parsed JSON document at `url`. Throws FeedFetchError saying what went wrong. */
export async function fetchPartnerDocument(url: string, options: FetchPartnerOptions = {}): Promise<unknown> {
  const limits = { ...DEFAULT_FETCH_LIMITS, ...options.limits };
  const agent = new Agent({
    connect: {
      timeout: limits.connectTimeoutMs,
      ...(options.ca === undefined ? {} : { ca: [...rootCertificates, options.ca] }),
    },
    headersTimeout: limits.headersTimeoutMs,
    bodyTimeout: limits.bodyTimeoutMs,
  });
  const failed = (reason: string, cause?: unknown) =>
    new FeedFetchError(`fetching ${url} failed: ${reason}`, { cause });
  try {
    let response;
    try {
      response = await request(url, {
        dispatcher: agent,
        signal: AbortSignal.timeout(limits.totalTimeoutMs),
        headers: { accept: 'application/json', 'user-agent': 'ContentService-Feeds/1' },
      });
    } catch (error) {
      throw failed(describeNetworkError(error, limits), error);
    }
    const { statusCode, headers, body } = response;
    if (statusCode < 200 || statusCode > 299) {
      await body.dump().catch(() => {});
      throw failed(`status ${statusCode}`);
    }
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > limits.maxBytes) {
      body.destroy();
      throw failed(`the document is ${declared} bytes, above the limit of ${limits.maxBytes}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of body) {
        size += (chunk as Buffer).length;
        if (size > limits.maxBytes) {
          body.destroy();
          throw failed(`the document exceeds the limit of ${limits.maxBytes} bytes`);
        }
        chunks.push(chunk as Buffer);
      }
    } catch (error) {
      if (error instanceof FeedFetchError) throw error;
      throw failed(`reading the document: ${describeNetworkError(error, limits)}`, error);
    }
    const text = Buffer.concat(chunks)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
    try {
      return parseJson(text);
    } catch (error) {
      throw new FeedFetchError(`the document at ${url} is not valid JSON: ${(error as Error).message}`, {
        cause: error,
      });
    }
  } finally {
    await agent.close().catch(() => {});
  }
}

function describeNetworkError(error: unknown, limits: FetchLimits): string {
  const e = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError')
    return `no complete answer within ${limits.totalTimeoutMs} ms`;
  if (e.code === 'UND_ERR_CONNECT_TIMEOUT') return `no connection within ${limits.connectTimeoutMs} ms`;
  if (e.code === 'UND_ERR_HEADERS_TIMEOUT') return `no response headers within ${limits.headersTimeoutMs} ms`;
  if (e.code === 'UND_ERR_BODY_TIMEOUT') return `the body stalled for ${limits.bodyTimeoutMs} ms`;
  const code = e.code ?? e.cause?.code;
  const message = e.message ?? String(error);
  return code !== undefined && !message.includes(code) ? `${code}: ${message}` : message;
}
