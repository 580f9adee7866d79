import { STATUS_CODES } from 'node:http';

/** One validation failure: where (`/trcItemDetails/0/lang`, `query/size`) and what is wrong. */
export interface HttpErrorDetail {
  pointer: string;
  message: string;
}

export interface HttpErrorOptions {
  /** What was received and what was expected. Defaults to the reason phrase. */
  message?: string;
  headers?: Readonly<Record<string, string>>;
  cause?: unknown;
  details?: readonly HttpErrorDetail[];
  /** A 5xx the service means to send (the 503 while it starts): logged at info, without a stack. */
  expected?: boolean;
}

/** The error body of every status (DEC-ERR-001). */
export interface ErrorBody {
  status: number;
  error: string;
  message: string;
  details?: HttpErrorDetail[];
}

/**
 * The one error type for answers to the client: thrown anywhere, rendered by one error handler in
 * the spec's error shape. Anything that is not an HttpError is a logged 500.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly details: readonly HttpErrorDetail[] | undefined;
  readonly expected: boolean;

  constructor(status: number, options: HttpErrorOptions = {}) {
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`HttpError status must be an integer 400…599 (received: ${status})`);
    }
    super(options.message ?? reasonPhrase(status), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HttpError';
    this.status = status;
    this.headers = options.headers ?? {};
    this.details = options.details;
    this.expected = options.expected ?? false;
  }

  /** The reason phrase of `status`, the `error` field of the body. */
  get error(): string {
    return reasonPhrase(this.status);
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { status: this.status, error: this.error, message: this.message };
    if (this.details !== undefined && this.details.length > 0) body.details = [...this.details];
    return body;
  }
}

function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

/**
 * A 400 about one place in the request. `message` is a whole sentence naming the field, what was
 * received and what was expected; it is both the body's message and the one detail's message.
 */
export function badRequest(pointer: string, message: string, cause?: unknown): HttpError {
  return new HttpError(400, { message, details: [{ pointer, message }], cause });
}
