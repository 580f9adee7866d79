// A small JSON client for tests that talk to several instances: one bearer token, one simulated
// client IP (X-Forwarded-For; the instances trust the loopback proxy), any instance per call.

import { randomInt } from 'node:crypto';

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A client address of its own (in 10/8), so no other test or run shares its rate-limit bucket. */
export function randomClientIp(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}

export interface CallOptions {
  token?: string;
  ip?: string;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export async function call<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer<T>> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
      ...(options.ip === undefined ? {} : { 'x-forwarded-for': options.ip }),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    /* not JSON: keep the text */
  }
  return { status: response.status, headers: response.headers, body: body as T };
}

/** Calls bound to one token and client IP; the instance (base URL) is chosen per call. */
export function clientFor(token: string, ip: string = randomClientIp()) {
  return {
    ip,
    get: <T = any>(baseUrl: string, path: string) => call<T>(baseUrl, 'GET', path, { token, ip }),
    post: <T = any>(baseUrl: string, path: string, body: unknown) =>
      call<T>(baseUrl, 'POST', path, { token, ip, body }),
    put: <T = any>(baseUrl: string, path: string, body: unknown) => call<T>(baseUrl, 'PUT', path, { token, ip, body }),
    delete: <T = any>(baseUrl: string, path: string) => call<T>(baseUrl, 'DELETE', path, { token, ip }),
  };
}
