// Image benchmark (issue 4): resized-image requests per second against the real app over HTTP, on
// PGlite in memory with the asset files on disk (a temporary DATA_DIR), a ~3 MP JPEG photo.
//
// - cold: every request asks a variant never made before, so each one decodes, resizes and
//   encodes (the resizer's concurrency gate included);
// - cached: one variant asked over and over, served from the in-memory variant cache;
// - revalidated: the same with If-None-Match, answered 304 without a body.
//
//   node scripts/bench/images.ts [seconds per cached phase] [cold requests]
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { Agent } from 'undici';
import { createApp } from '../../reference-impl/src/app.ts';
import { loadConfig } from '../../reference-impl/src/config.ts';
import { createLogger } from '../../reference-impl/src/logger.ts';
import { createServices } from '../../reference-impl/src/services.ts';
import { runMigrations } from '../../reference-impl/src/storage/migrate.ts';
import { openPgliteDb } from '../../reference-impl/src/storage/pgliteDb.ts';
import { createTestAccount, createTestToken } from '../../reference-impl/test/support/fixtures.ts';
import { percentile } from './stats.ts';

export interface ImageBenchOptions {
  /** Requests in the cold phase, each a new variant (default 120). */
  coldRequests?: number;
  /** Length of the cached and revalidated phases (default 5 s each). */
  seconds?: number;
  /** Requests in flight at once (default 16). */
  concurrency?: number;
  /** Source image size (default 2048 × 1536). */
  width?: number;
  height?: number;
  print?: (line: string) => void;
}

export interface PhaseFigures {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number };
}

export interface ImageBenchResult {
  source: { width: number; height: number; bytes: number };
  concurrency: number;
  cold: PhaseFigures;
  cached: PhaseFigures;
  revalidated: PhaseFigures;
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** A photo-like JPEG: a gradient under gaussian noise, so it neither compresses to nothing nor is pure noise. */
async function makePhoto(width: number, height: number): Promise<Buffer> {
  const noise = await sharp({
    create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .png()
    .toBuffer();
  const gradient = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="#1d4e89"/><stop offset="1" stop-color="#f4a259"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
  );
  return sharp(gradient)
    .composite([{ input: noise, blend: 'soft-light' }])
    .jpeg({ quality: 85 })
    .toBuffer();
}

/**
 * Runs `concurrency` closed-loop clients until `total` requests are done or `until` has passed;
 * `next(i)` gives the i-th request's path and headers, `check` its expected status.
 */
async function phase(
  baseUrl: string,
  dispatcher: Agent,
  concurrency: number,
  plan: {
    total?: number;
    until?: number;
    next: (i: number) => { path: string; headers: Record<string, string> };
    status: number;
  },
): Promise<PhaseFigures> {
  const latencies: number[] = [];
  let issued = 0;
  const started = performance.now();
  const worker = async () => {
    for (;;) {
      if (plan.total !== undefined && issued >= plan.total) return;
      if (plan.until !== undefined && performance.now() >= plan.until) return;
      const { path, headers } = plan.next(issued++);
      const t0 = performance.now();
      const response = await fetch(`${baseUrl}${path}`, { headers, dispatcher } as RequestInit);
      await response.arrayBuffer();
      if (response.status !== plan.status)
        throw new Error(`GET ${path}: expected ${plan.status}, received ${response.status}`);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    seconds: round(seconds, 2),
    requestsPerSecond: round(latencies.length / seconds),
    latencyMs: { p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)) },
  };
}

export async function runImageBench(options: ImageBenchOptions = {}): Promise<ImageBenchResult> {
  const print = options.print ?? ((line: string) => console.log(line));
  const coldRequests = options.coldRequests ?? 120;
  const seconds = options.seconds ?? 5;
  const concurrency = options.concurrency ?? 16;
  const width = options.width ?? 2048,
    height = options.height ?? 1536;

  const dataDir = await mkdtemp(join(tmpdir(), 'bench-images-'));
  const db = await openPgliteDb({ dataDir: ':memory:' });
  const dispatcher = new Agent({ connections: concurrency, keepAliveTimeout: 30_000 });
  const server = createServer();
  try {
    await runMigrations(db);
    await createTestAccount(db, { accountId: 'bench', organisations: ['bench-org'] });
    const { token } = await createTestToken(db, { accountId: 'bench' });
    const config = loadConfig({
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      SEED_DEMO_DATA: 'false',
      SESSION_SECRET: 'b'.repeat(40),
      RATE_LIMIT_ENABLED: 'false',
    });
    const app = createApp(createServices(config, { db, logger: createLogger({ level: 'silent' }), now: Date.now }));
    server.on('request', app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    const auth = { authorization: `Bearer ${token}` };

    const photo = await makePhoto(width, height);
    const form = new FormData();
    form.append('file', new Blob([photo], { type: 'image/jpeg' }), 'photo.jpg');
    const uploaded = await fetch(`${baseUrl}/assets`, { method: 'POST', headers: auth, body: form });
    if (uploaded.status !== 201) throw new Error(`upload failed: ${uploaded.status} ${await uploaded.text()}`);
    const { id } = (await uploaded.json()) as { id: string };
    const file = `/assets/${id}/photo.jpg`;

    // Cold: widths 200, 201, 202, … — each a new variant, so the cache never answers.
    const cold = await phase(baseUrl, dispatcher, concurrency, {
      total: coldRequests,
      status: 200,
      next: (i) => ({ path: `${file}?w=${200 + i}&h=${2000 - i}&mode=cover`, headers: auth }),
    });
    const cachedPath = `${file}?w=800&h=600&mode=fit`;
    const first = await fetch(`${baseUrl}${cachedPath}`, { headers: auth });
    const etag = first.headers.get('etag')!;
    const variantBytes = (await first.arrayBuffer()).byteLength;
    const cached = await phase(baseUrl, dispatcher, concurrency, {
      until: performance.now() + seconds * 1000,
      status: 200,
      next: () => ({ path: cachedPath, headers: auth }),
    });
    const revalidated = await phase(baseUrl, dispatcher, concurrency, {
      until: performance.now() + seconds * 1000,
      status: 304,
      next: () => ({ path: cachedPath, headers: { ...auth, 'if-none-match': etag } }),
    });

    const result: ImageBenchResult = {
      source: { width, height, bytes: photo.length },
      concurrency,
      cold,
      cached,
      revalidated,
    };
    print(
      `images: one ${width}×${height} JPEG (${round(photo.length / 1024)} KiB), ${concurrency} requests in flight, PGlite, files on disk`,
    );
    print(
      `  cold (new variant each):   ${cold.requestsPerSecond} req/s  (${cold.requests} in ${cold.seconds} s; p50 ${cold.latencyMs.p50} ms, p99 ${cold.latencyMs.p99} ms)`,
    );
    print(
      `  cached (800×600, ${round(variantBytes / 1024)} KiB): ${cached.requestsPerSecond} req/s  (${cached.requests} in ${cached.seconds} s; p50 ${cached.latencyMs.p50} ms, p99 ${cached.latencyMs.p99} ms)`,
    );
    print(
      `  revalidated (304):         ${revalidated.requestsPerSecond} req/s  (${revalidated.requests} in ${revalidated.seconds} s; p50 ${revalidated.latencyMs.p50} ms, p99 ${revalidated.latencyMs.p99} ms)`,
    );
    return result;
  } finally {
    await new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
    await dispatcher.close();
    await db.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runImageBench({ seconds: Number(process.argv[2] ?? 5), coldRequests: Number(process.argv[3] ?? 120) });
}
