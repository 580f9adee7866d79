// The suite's webhook receiver: an HTTP(S) server that records every delivery exactly as it
// arrived (raw body bytes, headers, arrival time), answers as a per-endpoint script says, and
// verifies signatures with the client library's verifier when it knows the secret.
//
// Each check takes its own endpoint (`receiver.endpoint('hook-signature')`), registers that URL
// as a token's callBackUrl, and waits for deliveries there.

import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS } from '../../generated/constants.ts';
import { parseJson } from '../../spec/json.ts';
import { CheckFailure } from '../model/failure.ts';
import { ResponseScript } from './responseScript.ts';
import type { PlannedResponse, ResponseStep } from './responseScript.ts';
import { clientVerifier } from './verifier.ts';
import type { VerifyFn, VerifyOutcome } from './verifier.ts';

export interface Delivery {
  seq: number;
  /** The endpoint name, or undefined for a path no endpoint owns. */
  endpoint: string | undefined;
  method: string;
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  rawBody: Buffer;
  /** Epoch milliseconds when the whole body had arrived. */
  receivedAt: number;
  response: PlannedResponse;
  /** Present when the endpoint knows the signing secret. */
  verification?: VerifyOutcome;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json(): unknown;
}

export type DeliveryPredicate = (delivery: Delivery) => boolean;

export interface ReceiverEndpoint {
  readonly name: string;
  readonly path: string;
  /** The URL to register as callBackUrl. */
  readonly url: string;
  readonly deliveries: readonly Delivery[];
  respondWith(steps: readonly ResponseStep[]): void;
  setDefault(step: ResponseStep): void;
  /** The signing secret(s) to verify deliveries with; undefined stops verifying. */
  setSecret(secret: string | readonly string[] | undefined): void;
  /** The first delivery (already received or arriving) that matches, or a CheckFailure after timeoutMs. */
  waitFor(predicate: DeliveryPredicate, timeoutMs: number, description?: string): Promise<Delivery>;
  /** Resolves once `count` deliveries have arrived. */
  waitForCount(count: number, timeoutMs: number): Promise<Delivery[]>;
  /** Waits `durationMs` and fails if a matching delivery arrives meanwhile. */
  expectNone(durationMs: number, predicate?: DeliveryPredicate, description?: string): Promise<void>;
  clear(): void;
}

export interface Receiver {
  /** Base URL the target should call (the public --callback-url when given). */
  readonly url: string;
  /** Where the server actually listens. */
  readonly localUrl: string;
  readonly deliveries: readonly Delivery[];
  endpoint(name: string): ReceiverEndpoint;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  host?: string;
  port?: number;
  /** Public base URL that reaches this server (e.g. a tunnel); default: the local URL. */
  publicUrl?: string;
  tls?: { key: string; cert: string };
  verify?: VerifyFn;
  toleranceSeconds?: number;
  now?: () => number;
}

const NAME_RE = /^[A-Za-z0-9._-]{1,80}$/;

interface Waiter {
  predicate: DeliveryPredicate;
  resolve: (d: Delivery) => void;
}

function summarise(deliveries: readonly Delivery[]): string {
  if (deliveries.length === 0) return 'none arrived';
  return deliveries
    .slice(-5)
    .map((d) => `#${d.seq} ${d.method} ${d.path} (${d.rawBody.length} bytes, answered ${d.response.status})`)
    .join('; ');
}

export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const host = options.host ?? '127.0.0.1';
  const verify = options.verify ?? clientVerifier;
  const now = options.now ?? Date.now;
  const all: Delivery[] = [];
  const endpoints = new Map<string, EndpointState>();
  let seq = 0;

  interface EndpointState {
    api: ReceiverEndpoint;
    script: ResponseScript;
    deliveries: Delivery[];
    secret: string | readonly string[] | undefined;
    waiters: Set<Waiter>;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks);
    const path = (req.url ?? '/').split('?')[0]!;
    const state = [...endpoints.values()].find((e) => e.api.path === path);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const response = state ? state.script.next() : { status: 404 };
    let parsed: { value: unknown } | undefined;
    const delivery: Delivery = {
      seq: ++seq,
      endpoint: state?.api.name,
      method: req.method ?? 'POST',
      path,
      headers,
      rawBody,
      receivedAt: now(),
      response,
      json() {
        if (!parsed) {
          try {
            parsed = { value: parseJson(rawBody.toString('utf8')) };
          } catch {
            parsed = { value: undefined };
          }
        }
        return parsed.value;
      },
    };
    if (state?.secret !== undefined) {
      try {
        delivery.verification = verify(rawBody, headers, state.secret, {
          toleranceSeconds: options.toleranceSeconds ?? WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS,
          now: now(),
        });
      } catch (error) {
        delivery.verification = { ok: false, reason: 'verifier_error', message: (error as Error).message };
      }
    }
    all.push(delivery);
    if (state) {
      state.deliveries.push(delivery);
      for (const waiter of [...state.waiters]) {
        if (waiter.predicate(delivery)) {
          state.waiters.delete(waiter);
          waiter.resolve(delivery);
        }
      }
    }
    if (response.delayMs) await new Promise((r) => setTimeout(r, response.delayMs));
    if (response.hangUp) {
      req.socket.destroy();
      return;
    }
    if (res.destroyed) return; // the sender gave up (timeout)
    res.writeHead(response.status, { 'content-type': 'text/plain', ...response.headers });
    res.end(response.body ?? '');
  }

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch(() => res.destroy());
  };
  const server: Server = options.tls ? createHttpsServer(options.tls, listener) : createHttpServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const localUrl = `${options.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const publicUrl = (options.publicUrl ?? localUrl).replace(/\/$/, '');

  function createEndpoint(name: string): EndpointState {
    if (!NAME_RE.test(name)) throw new Error(`receiver endpoint name must match ${NAME_RE} (received: ${name})`);
    const path = `${new URL(publicUrl).pathname.replace(/\/$/, '')}/hooks/${name}`;
    const state: EndpointState = {
      script: new ResponseScript(),
      deliveries: [],
      secret: undefined,
      waiters: new Set(),
      api: undefined as unknown as ReceiverEndpoint,
    };
    state.api = {
      name,
      path,
      url: `${new URL(publicUrl).origin}${path}`,
      get deliveries() {
        return state.deliveries;
      },
      respondWith: (steps) => state.script.respondWith(steps),
      setDefault: (step) => state.script.setDefault(step),
      setSecret: (secret) => {
        state.secret = secret;
      },
      waitFor(predicate, timeoutMs, description = 'a matching delivery') {
        const existing = state.deliveries.find(predicate);
        if (existing) return Promise.resolve(existing);
        return new Promise<Delivery>((resolve, reject) => {
          const waiter: Waiter = {
            predicate,
            resolve: (d) => {
              clearTimeout(timer);
              resolve(d);
            },
          };
          const timer = setTimeout(() => {
            state.waiters.delete(waiter);
            reject(
              new CheckFailure({
                message: `no ${description} arrived at ${state.api.url} within ${timeoutMs} ms (deliveries: ${summarise(state.deliveries)})`,
                received: `${state.deliveries.length} deliveries`,
                expected: description,
              }),
            );
          }, timeoutMs);
          state.waiters.add(waiter);
        });
      },
      async waitForCount(count, timeoutMs) {
        await state.api.waitFor(() => state.deliveries.length >= count, timeoutMs, `delivery number ${count}`);
        return state.deliveries.slice(0, count);
      },
      async expectNone(durationMs, predicate = () => true, description = 'delivery') {
        const before = state.deliveries.length;
        await new Promise((r) => setTimeout(r, durationMs));
        const unexpected = state.deliveries.slice(before).find(predicate);
        if (unexpected) {
          throw new CheckFailure({
            message: `an unexpected ${description} arrived at ${state.api.url} (#${unexpected.seq}, ${unexpected.rawBody.length} bytes)`,
            received: unexpected.rawBody.toString('utf8', 0, 500),
            expected: `no ${description} within ${durationMs} ms`,
          });
        }
      },
      clear() {
        state.deliveries.length = 0;
        state.script.reset();
      },
    };
    return state;
  }

  return {
    url: publicUrl,
    localUrl,
    get deliveries() {
      return all;
    },
    endpoint(name) {
      let state = endpoints.get(name);
      if (!state) {
        state = createEndpoint(name);
        endpoints.set(name, state);
      }
      return state.api;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
