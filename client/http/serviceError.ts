/** A non-2xx answer, with the interface's error body when there is one (`{status, error, message}`). */
export class ServiceError extends Error {
  readonly status: number;
  readonly url: string;
  readonly body: unknown;
  constructor(status: number, url: string, body: unknown) {
    const message = (body as { message?: unknown } | null | undefined)?.message;
    super(`HTTP ${status} from ${url}${typeof message === 'string' ? `: ${message}` : ''}`);
    this.name = 'ServiceError';
    this.status = status;
    this.url = url;
    this.body = body;
  }
}
