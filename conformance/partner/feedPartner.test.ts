// The feed partner endpoint: its options, its certificate (generated, kept, reused, replaced)
// and what it serves.

import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../config/config.ts';
import type { ConformanceConfig } from '../config/config.ts';
import { defineCheck } from '../model/check.ts';
import { describeCheck, unmetNeed } from '../engine/plan/select.ts';
import { loadRequirements } from '../spec/requirements.ts';
import { assertPortFree, startFeedPartner } from './feedPartner.ts';
import type { FeedPartner } from './feedPartner.ts';
import { loadPartnerTls, PARTNER_CERT_FILE, PARTNER_KEY_FILE, PartnerTlsError } from './partnerTls.ts';

async function config(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ConformanceConfig> {
  const command = await resolveConfig(['--base-url', 'http://x/api', ...args], env, '/tmp');
  if (command.kind !== 'run') throw new Error('not a run');
  return command.config;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'feed-partner-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('feed partner options', () => {
  it('when only --feed-partner-port is given, then the partner listens on 127.0.0.1 and the document is /feed.json there', async () => {
    const c = await config(['--feed-partner-port', '8443', '--feed-id', 'uitagenda']);
    expect(c.feedPartner).toEqual({ host: '127.0.0.1', port: 8443, url: 'https://127.0.0.1:8443/feed.json' });
    expect(c.feedInfoId).toBeUndefined();
    expect((await config([])).feedPartner).toBeUndefined();
  });

  it('when the environment gives the options, then they are typed like the flags', async () => {
    const c = await config([], {
      CONFORMANCE_FEED_PARTNER_PORT: '9000',
      CONFORMANCE_FEED_PARTNER_HOST: '0.0.0.0',
      CONFORMANCE_FEED_PARTNER_URL: 'https://runner.example:443/x/feed.json',
      CONFORMANCE_FEED_PARTNER_CERT: 'c.pem',
      CONFORMANCE_FEED_PARTNER_KEY: 'k.pem',
      CONFORMANCE_FEED_NAME: 'uitagenda',
      CONFORMANCE_FEED_INFO_ID: 'musea',
    });
    expect(c).toMatchObject({
      feedName: 'uitagenda',
      feedInfoId: 'musea',
      feedPartner: {
        host: '0.0.0.0',
        port: 9000,
        url: 'https://runner.example/x/feed.json',
        certFile: '/tmp/c.pem',
        keyFile: '/tmp/k.pem',
      },
    });
  });

  it('when the options do not fit together, then the error says which', async () => {
    const fails = (args: string[]) => resolveConfig(['--base-url', 'http://x', ...args], {}, '/');
    await expect(fails(['--feed-partner-cert', 'c.pem'])).rejects.toThrow(
      '--feed-partner-cert needs --feed-partner-port',
    );
    await expect(fails(['--feed-partner-port', '8443', '--feed-partner-cert', 'c.pem'])).rejects.toThrow(
      '--feed-partner-cert and --feed-partner-key go together',
    );
    await expect(fails(['--feed-partner-port', '8443', '--feed-partner-host', '0.0.0.0'])).rejects.toThrow(
      '--feed-partner-host 0.0.0.0 needs --feed-partner-url',
    );
    await expect(
      fails(['--feed-partner-port', '8443', '--feed-partner-url', 'http://x:8443/feed.json']),
    ).rejects.toThrow('must be an https URL');
    await expect(fails(['--feed-partner-port', '8443', '--feed-partner-url', 'https://x:8443/'])).rejects.toThrow(
      'must name a document',
    );
    await expect(fails(['--feed-partner-port', '70000'])).rejects.toThrow(
      '--feed-partner-port must be between 1 and 65535',
    );
    await expect(fails(['--feed-name', 'a:b'])).rejects.toThrow(
      '--feed-name must be 1 to 200 characters without spaces or colons',
    );
  });

  it('when a check needs the feed, then it runs only with an admin token, --feed-id and the partner, and says what is missing', async () => {
    const catalogue = await loadRequirements(new URL('../../spec/requirements.yaml', import.meta.url).pathname);
    const check = describeCheck(
      defineCheck({
        id: 'feeds.x',
        title: 't',
        requirements: ['FEED-001'],
        needs: ['feed'],
        writes: 'items',
        run: async () => {},
      }),
      catalogue,
    );
    const admin = ['--profile', 'full', '--admin-token', 'a', '--account-id', 'amsterdam', '--token', 'c'];
    expect(unmetNeed(check, await config([...admin, '--feed-id', 'f']))).toContain('--feed-id and --feed-partner-port');
    expect(unmetNeed(check, await config([...admin, '--feed-partner-port', '8443']))).toContain(
      '--feed-id and --feed-partner-port',
    );
    expect(unmetNeed(check, await config(['--profile', 'full', '--feed-id', 'f', '--feed-partner-port', '8443']))).toBe(
      'needs an admin token and its account (--admin-token, --account-id)',
    );
    expect(
      unmetNeed(
        check,
        await config([
          '--admin-token',
          'a',
          '--account-id',
          'amsterdam',
          '--feed-id',
          'f',
          '--feed-partner-port',
          '8443',
        ]),
      ),
    ).toContain('read-only');
    expect(unmetNeed(check, await config([...admin, '--feed-id', 'f', '--feed-partner-port', '8443']))).toBeUndefined();
  });
});

describe('the partner certificate', () => {
  const partner = { host: '127.0.0.1', port: 8443, url: 'https://127.0.0.1:8443/feed.json' };

  it("when none is given, then a self-signed one for the partner's hosts is written to the report dir (key 0600) and reused by the next run", async () => {
    const reportDir = join(dir, 'generated');
    const first = await loadPartnerTls(partner, reportDir);
    expect(first.source).toBe('generated');
    expect(first.certFile).toBe(join(reportDir, PARTNER_CERT_FILE));
    const x509 = new X509Certificate(first.cert);
    expect(x509.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(x509.checkHost('localhost')).toBe('localhost');
    expect(x509.ca).toBe(true);
    expect((await stat(join(reportDir, PARTNER_KEY_FILE))).mode & 0o777).toBe(0o600);
    expect(await readFile(first.certFile, 'utf8')).toBe(first.cert);
    const second = await loadPartnerTls(partner, reportDir);
    expect(second).toMatchObject({ source: 'reused', cert: first.cert, key: first.key });
  });

  it("when the kept certificate does not name the partner's host, then a new one replaces it", async () => {
    const reportDir = join(dir, 'moved');
    const first = await loadPartnerTls(partner, reportDir);
    const moved = await loadPartnerTls(
      { host: '0.0.0.0', port: 8443, url: 'https://runner.example:8443/feed.json' },
      reportDir,
    );
    expect(moved.source).toBe('generated');
    expect(moved.cert).not.toBe(first.cert);
    expect(new X509Certificate(moved.cert).checkHost('runner.example')).toBe('runner.example');
  });

  it('when the vendor gives a pair, then it is used as it is; a key of another certificate is refused', async () => {
    const a = await loadPartnerTls(partner, join(dir, 'a'));
    const b = await loadPartnerTls(partner, join(dir, 'b'));
    await writeFile(join(dir, 'wrong-key.pem'), b.key);
    const given = await loadPartnerTls(
      { ...partner, certFile: a.certFile, keyFile: join(dir, 'a', PARTNER_KEY_FILE) },
      join(dir, 'unused'),
    );
    expect(given).toMatchObject({ source: 'given', cert: a.cert });
    await expect(
      loadPartnerTls({ ...partner, certFile: a.certFile, keyFile: join(dir, 'wrong-key.pem') }, dir),
    ).rejects.toThrow(PartnerTlsError);
    await expect(
      loadPartnerTls({ ...partner, certFile: join(dir, 'none.pem'), keyFile: join(dir, 'none.pem') }, dir),
    ).rejects.toThrow('cannot read');
  });
});

describe('the partner endpoint', () => {
  let server: FeedPartner;
  let agent: Agent;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    const url = `https://127.0.0.1:${port}/feed.json`;
    const tls = await loadPartnerTls({ host: '127.0.0.1', port, url }, join(dir, 'server'));
    server = await startFeedPartner({ host: '127.0.0.1', port, url, tls });
    agent = new Agent({ connect: { ca: tls.cert } });
  });
  afterAll(async () => {
    await server?.close();
    await agent?.close();
  });

  const get = async (path: string) => {
    const res = await request(`https://127.0.0.1:${port}${path}`, { dispatcher: agent });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };

  it("when entries are served, then the main document holds them all and a sub-feed's document those with its feedInfoId", async () => {
    server.serve([{ id: 'a' }, { id: 'b', feedInfoId: 'musea' }]);
    expect(await get('/feed.json')).toMatchObject({
      status: 200,
      body: { entries: [{ id: 'a' }, { id: 'b', feedInfoId: 'musea' }] },
    });
    expect(await get('/feed/musea.json')).toMatchObject({
      status: 200,
      body: { entries: [{ id: 'b', feedInfoId: 'musea' }] },
    });
    expect(await get('/feed/festivals.json')).toMatchObject({ status: 200, body: { entries: [] } });
    expect((await get('/other.json')).status).toBe(404);
    expect(server.subFeedUrl('musea')).toBe(`https://127.0.0.1:${port}/feed/musea.json`);
    expect(server.requests.at(-1)).toMatchObject({ path: '/other.json', document: 'unknown', status: 404 });
    server.clear();
    expect((await get('/feed.json')).body).toEqual({ entries: [] });
  });

  it('when a failure is asked for, then the main document answers it; a redirect leads to a URL that does answer', async () => {
    server.serve([{ id: 'a' }], { fail: { status: 503 } });
    expect((await get('/feed.json')).status).toBe(503);
    server.serve([{ id: 'a' }], { fail: 'redirect' });
    const moved = await get('/feed.json');
    expect(moved).toMatchObject({ status: 302, headers: { location: '/feed.json?redirected=1' } });
    expect(await get('/feed.json?redirected=1')).toMatchObject({ status: 200, body: { entries: [{ id: 'a' }] } });
  });

  it('when a delay is asked for, then the answer is held and the log says when it was sent', async () => {
    server.serve([{ id: 'a' }], { delayMs: 300 });
    const started = Date.now();
    await get('/feed.json');
    const log = server.requests.at(-1)!;
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(log.answeredAt! - log.receivedAt).toBeGreaterThanOrEqual(290);
  });

  it('when its port is taken, then assertPortFree says so', async () => {
    await expect(assertPortFree('127.0.0.1', port)).rejects.toThrow(/EADDRINUSE/);
    const free = await freePort();
    await expect(assertPortFree('127.0.0.1', free)).resolves.toBeUndefined();
  });
});
