// A fault-injecting proxy for testing the suite itself: it stands between the suite and a
// correct target (API traffic) and, optionally, between the target and the suite's receiver
// (webhook deliveries), and breaks the traffic with small named modifiers. Running the suite
// through it must fail on the requirement each modifier breaks.
//
//   const proxy = await startFaultProxy({ target: 'http://127.0.0.1:8080/api', modifiers: [omitRetryAfter()] });
//   // run the suite with --base-url proxy.url

import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export interface ProxiedRequest {
  method: string;
  /** Path and query as the suite sent them (the target's base path included). */
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  /** Set by a request modifier to answer without asking the target (response modifiers still run). */
  answer?: ProxiedResponse;
}

export interface ProxiedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface ProxiedDelivery {
  /** Path and query the target posted to (the receiver's endpoint path). */
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  /** Set by a delivery modifier to answer the target with this status without forwarding (a lost delivery). */
  swallow?: number;
}

/** What a modifier may do besides rewriting: ask the target itself (e.g. for more than one page). */
export interface ProxyTools {
  upstream(req: ProxiedRequest): Promise<ProxiedResponse>;
}

export type Resend = (delivery: ProxiedDelivery) => Promise<number>;

export interface FaultModifier {
  readonly name: string;
  /** Rewrites an API request before it reaches the target. */
  request?(req: ProxiedRequest, tools: ProxyTools): ProxiedRequest | Promise<ProxiedRequest>;
  /** Rewrites the target's answer before the suite sees it. */
  response?(res: ProxiedResponse, req: ProxiedRequest, tools: ProxyTools): ProxiedResponse | Promise<ProxiedResponse>;
  /** Rewrites a webhook delivery on its way from the target to the receiver. */
  delivery?(delivery: ProxiedDelivery): ProxiedDelivery | Promise<ProxiedDelivery>;
  /** Runs after the receiver answered a delivery (e.g. to send a retry the service must not send). */
  afterDelivery?(delivery: ProxiedDelivery, status: number, resend: Resend): void | Promise<void>;
}

export interface FaultProxyOptions {
  /** Base URL of the real target, e.g. http://127.0.0.1:8080/api. */
  target: string;
  modifiers: readonly FaultModifier[];
  /** Base URL of the real receiver; when given, a second listener forwards deliveries to it. */
  webhookTarget?: string;
}

export interface FaultProxy {
  /** Use as --base-url: the target's base path on the proxy's origin. */
  readonly url: string;
  /** Use as --callback-url (when webhookTarget was given). */
  readonly webhookUrl: string | undefined;
  /** Names of the modifiers that changed something, with a count. */
  readonly applied: ReadonlyMap<string, number>;
  /** Swaps the modifiers (and clears `applied`): one proxy, and one target URL, for many faults. */
  setModifiers(modifiers: readonly FaultModifier[]): void;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
  'content-length',
  'host',
]);

function cleanHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined || HOP_BY_HOP.has(k.toLowerCase())) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: Buffer): void {
  res.writeHead(status, { ...headers, 'content-length': String(body.length) });
  res.end(body);
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** JSON helpers for modifiers: parse a body, and replace it with a new value. */
export function readJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

export function jsonBody(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(options.target);
  const applied = new Map<string, number>();
  let modifiers = options.modifiers;
  const count = (name: string, before: unknown, after: unknown) => {
    if (before !== after) applied.set(name, (applied.get(name) ?? 0) + 1);
  };

  const upstream = async (proxied: ProxiedRequest): Promise<ProxiedResponse> => {
    const answer = await request(new URL(proxied.url, target.origin), {
      method: proxied.method as 'GET',
      headers: proxied.headers,
      body: proxied.body.length > 0 ? proxied.body : undefined,
    });
    return {
      status: answer.statusCode,
      headers: cleanHeaders(answer.headers as Record<string, string | string[]>),
      body: Buffer.from(await answer.body.arrayBuffer()),
    };
  };
  const tools: ProxyTools = { upstream };

  const api = createServer((req, res) => {
    void (async () => {
      let proxied: ProxiedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: cleanHeaders(req.headers),
        body: await readBody(req),
      };
      for (const m of modifiers) {
        if (!m.request) continue;
        const next = await m.request(proxied, tools);
        count(m.name, proxied, next);
        proxied = next;
      }
      let answer: ProxiedResponse = proxied.answer ?? (await upstream(proxied));
      for (const m of modifiers) {
        if (!m.response) continue;
        const next = await m.response(answer, proxied, tools);
        count(m.name, answer, next);
        answer = next;
      }
      send(res, answer.status, answer.headers, answer.body);
    })().catch((error: unknown) =>
      send(res, 502, { 'content-type': 'text/plain' }, Buffer.from(`fault proxy: ${(error as Error).message}`)),
    );
  });

  let hooks: Server | undefined;
  let webhookUrl: string | undefined;
  if (options.webhookTarget) {
    const receiver = new URL(options.webhookTarget);
    const forward: Resend = async (d) => {
      const res = await request(new URL(d.url, receiver.origin), { method: 'POST', headers: d.headers, body: d.body });
      await res.body.dump();
      return res.statusCode;
    };
    hooks = createServer((req, res) => {
      void (async () => {
        let delivery: ProxiedDelivery = {
          url: req.url ?? '/',
          headers: cleanHeaders(req.headers),
          body: await readBody(req),
        };
        for (const m of modifiers) {
          if (!m.delivery) continue;
          const next = await m.delivery(delivery);
          count(m.name, delivery, next);
          delivery = next;
        }
        if (delivery.swallow !== undefined)
          return send(res, delivery.swallow, { 'content-type': 'text/plain' }, Buffer.alloc(0));
        let status: number;
        try {
          status = await forward(delivery);
        } catch {
          // The receiver hung up (or could not be reached): so does the proxy, as the receiver would have.
          res.socket?.destroy();
          return;
        }
        send(res, status, { 'content-type': 'text/plain' }, Buffer.alloc(0));
        for (const m of modifiers) {
          if (!m.afterDelivery) continue;
          const resend: Resend = async (d) => {
            applied.set(m.name, (applied.get(m.name) ?? 0) + 1);
            return forward(d);
          };
          await m.afterDelivery(delivery, status, resend);
        }
      })().catch(() => send(res, 502, {}, Buffer.alloc(0)));
    });
    webhookUrl = `http://127.0.0.1:${await listen(hooks)}`;
  }

  const port = await listen(api);
  const close = (server: Server | undefined) =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    url: `http://127.0.0.1:${port}${target.pathname.replace(/\/$/, '')}`,
    webhookUrl,
    applied,
    setModifiers: (next) => {
      modifiers = next;
      applied.clear();
    },
    close: async () => {
      await Promise.all([close(api), close(hooks)]);
    },
  };
}
