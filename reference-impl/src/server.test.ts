import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { DOCS_FILE, startService, withBoundPort } from './server.ts';

describe('withBoundPort', () => {
  it('when PORT=0 derived the base URL, then the bound port replaces it; an explicit base URL stays', () => {
    const derived = loadConfig({ PORT: '0', SESSION_SECRET: 'x'.repeat(40) });
    expect(withBoundPort(derived, 43210).publicBaseUrl).toBe('http://127.0.0.1:43210/api');
    const explicit = loadConfig({
      PORT: '0',
      PUBLIC_BASE_URL: 'https://content.example.com/api',
      SESSION_SECRET: 'x'.repeat(40),
    });
    expect(withBoundPort(explicit, 43210)).toMatchObject({
      port: 43210,
      publicBaseUrl: 'https://content.example.com/api',
    });
  });
});

describe('startService', () => {
  it('when stopped during a request, then the request is answered before the service stops, and new connections are refused', async () => {
    const bootstrap = `bootstrap-${'z'.repeat(32)}`;
    const config = loadConfig({
      PORT: '0',
      DATA_DIR: ':memory:',
      LOG_LEVEL: 'silent',
      SEED_DEMO_DATA: 'false',
      BOOTSTRAP_ADMIN_TOKEN: bootstrap,
      SESSION_SECRET: 'x'.repeat(40),
    });
    const service = await startService(config, createLogger({ level: 'silent' }));
    expect(service.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect(service.seed).toBeUndefined();
    expect(service.bootstrapToken).toEqual({ created: true });
    if (existsSync(DOCS_FILE)) {
      const docs = await fetch(`${service.baseUrl.slice(0, -4)}/docs/`);
      expect(docs.status).toBe(200);
      expect(docs.headers.get('content-type')).toContain('text/html');
    }

    // A POST whose body is still on its way: in flight when the stop begins.
    const { port } = new URL(service.baseUrl);
    const body = JSON.stringify({ trcItemDetails: [{ lang: 'nl', title: 'Laatste' }] });
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    const closed = new Promise((resolve) => socket.on('close', resolve));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${bootstrap}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));

    const stopped = service.stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(fetch(`${service.baseUrl}/actuator/health`)).rejects.toThrow();
    socket.write(body);
    await stopped;
    await closed;
    // Read and handled in full (the system account owns no organisation, hence the 400 naming it).
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect(answer).toContain('userorganisation is required');
  }, 120_000);

  it('when the service starts, then the retention job removes staged uploads a crash left more than an hour ago, keeps fresh ones, and stops with the service (DEC-MISC-004)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'server-retention-'));
    try {
      const staging = join(dataDir, 'assets', '.staging');
      await mkdir(staging, { recursive: true });
      const [stale, fresh] = [`${randomUUID()}.part`, `${randomUUID()}.part`];
      await writeFile(join(staging, stale), 'left by a crash');
      await writeFile(join(staging, fresh), 'an upload of another instance, in progress');
      const old = (Date.now() - 2 * 60 * 60 * 1000) / 1000;
      await utimes(join(staging, stale), old, old);

      const config = loadConfig({
        PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        SEED_DEMO_DATA: 'false',
        SESSION_SECRET: 'x'.repeat(40),
      });
      const service = await startService(config, createLogger({ level: 'silent' }));
      try {
        const deadline = Date.now() + 10_000;
        while ((await readdir(staging)).includes(stale) && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 50));
        expect(await readdir(staging)).toEqual([fresh]);
      } finally {
        await service.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
