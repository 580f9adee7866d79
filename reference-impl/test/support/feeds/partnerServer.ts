import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { stringify } from 'yaml';

// A partner's HTTPS endpoint for tests: a self-signed certificate (which the feed trusts through
// its caFile option), documents served per path, an optional delay, and a log of the requests.

export interface PartnerAnswer {
  status?: number;
  /** A value is sent as JSON; a string as it is (for broken documents). */
  body: unknown;
  /** Wait this long before answering. */
  delayMs?: number;
}

export interface PartnerServer {
  /** `https://127.0.0.1:<port><path>`. */
  url(path: string): string;
  /** The certificate the server presents: the CA a feed must trust. */
  cert: string;
  /** Answers `path` from now on. */
  serve(path: string, answer: PartnerAnswer): void;
  /** Paths requested so far, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startPartnerServer(): Promise<PartnerServer> {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    curve: 'P-256',
    notAfterDate: new Date(Date.now() + 24 * 3600_000),
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  });
  const answers = new Map<string, PartnerAnswer>();
  const requests: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const path = req.url ?? '/';
    requests.push(path);
    const answer = answers.get(path) ?? { status: 404, body: { message: `nothing at ${path}` } };
    const send = () => {
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' }).end(text);
    };
    if (answer.delayMs === undefined) return send();
    const timer = setTimeout(() => {
      timers.delete(timer);
      send();
    }, answer.delayMs);
    timers.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `https://127.0.0.1:${port}${path}`,
    cert: pems.cert,
    serve: (path, answer) => {
      answers.set(path, answer);
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Writes a feeds file (and the CA it names) into a fresh temporary directory; `remove()` deletes
 * both. Feed entries are written as given, plus `caFile` when `ca` is passed.
 */
export function writeFeedsFile(
  feeds: ReadonlyArray<Record<string, unknown>>,
  ca?: string,
): { path: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'feeds-'));
  if (ca !== undefined) writeFileSync(join(dir, 'partner-ca.pem'), ca);
  const path = join(dir, 'feeds.yaml');
  writeFileSync(
    path,
    stringify({ feeds: feeds.map((feed) => (ca === undefined ? feed : { ...feed, caFile: 'partner-ca.pem' })) }),
  );
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
