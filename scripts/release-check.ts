// `npm run release:check` (run by .ci/run after `npm test`): the packages as their users get them.
// Packs every package (`npm run release:pack`), installs each tarball alone into an empty project
// to measure it, then, once with Node 22 and once with Node 24 (the npm packages node@22 and
// node@24), installs all of them into a fresh project in a temporary folder outside the
// repository and, with that Node first on the PATH:
//   1. starts the reference service with the installed `content-service` on embedded storage;
//   2. runs the installed `content-conformance` in the certification profile with every token, its
//      feed wired as the repository's CI gate does (tests/conformance/): exit 0, reports written;
//   3. type-checks (strict tsc --noEmit) and runs an integrator program that imports only
//      @content-service/client and @content-service/spec (sync into a memory store, signature vectors);
//   4. has the installed `content-mock` answer one request with an example of the spec, and the
//      installed `content-webhooks trigger` reach `content-webhooks listen`, which the installed
//      `content-conformance receiver` certifies;
//   5. runs the README's GitHub Actions and GitLab CI snippets as shell against the same service;
//   6. reads every installed package's README: its TypeScript blocks type-check (strict tsc
//      --noEmit) against the installed packages, and every option its shell lines give a command
//      is one that command's `--help` lists; every bin's `--help` names the bin.
// The client installed alone (without its optional drivers) must refuse `content-sync --out` with
// exit 2 and the npm line that installs @electric-sql/pglite.
// Exit 0 when everything passed; the first failure stops it with exit 1.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';
import { loadSpec, resolveRef } from '../spec/index.ts';
import { codeBlocks } from '../tests/guides/markdown.ts';
import { freePort, wireFeed } from '../tests/conformance/support/feedPartner.ts';
import {
  cleanEnv,
  REFERENCE_ENV,
  REFERENCE_TIMING,
  startReferenceService,
} from '../tests/conformance/support/referenceService.ts';
import { repoRoot } from './lib/run.ts';
import { formatBytes, PACKAGES, releasePack, type PackedPackage } from './release-pack.ts';

const NODE_MAJORS = [22, 24] as const;
// The repository's copy of the shared signature vectors (a clean clone has no ../shared; the
// client's tests check the copy against the shared file where it is present).
const VECTORS = process.env.WEBHOOK_VECTORS ?? path.join(repoRoot, 'client/webhooks/fixtures/webhook-signatures.json');
const started = performance.now();
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

interface Ran {
  code: number | null;
  out: string;
  ms: number;
}

/** Runs a command to its end, output collected (and echoed when `echo`). */
function run(
  file: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; echo?: boolean; timeoutMs?: number },
): Promise<Ran> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const take = (chunk: Buffer) => {
      out += chunk.toString();
      if (options.echo) process.stdout.write(chunk);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 900_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, ms: performance.now() - t0 });
    });
  });
}

function expect(ok: unknown, what: string, detail = ''): void {
  if (!ok) throw new Error(`release check failed: ${what}${detail ? `\n${detail.slice(-6000)}` : ''}`);
  console.log(`  ok  ${what}`);
}

/** `npm install` of the given specs into a new project; returns its time and installed package count. */
async function installProject(
  dir: string,
  manifest: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ ms: number; packages: number }> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, 'package.json'),
    JSON.stringify({ private: true, type: 'module', ...manifest }, null, 2),
  );
  const ran = await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, env });
  expect(ran.code === 0, `npm install in ${dir}`, ran.out);
  const lock = JSON.parse(await readFile(path.join(dir, 'package-lock.json'), 'utf8')) as { packages: object };
  return { ms: ran.ms, packages: Object.keys(lock.packages).filter((k) => k !== '').length };
}

/** file: specs of a package's tarball and of the sibling tarballs it needs (no registry has them). */
async function withSiblings(name: string, packed: readonly PackedPackage[]): Promise<Record<string, string>> {
  const byName = new Map(packed.map((p) => [p.name, p]));
  const deps: Record<string, string> = {};
  const add = async (n: string) => {
    const p = byName.get(n)!;
    if (deps[n]) return;
    deps[n] = `file:${p.tarball}`;
    const manifest = JSON.parse(await readFile(path.join(repoRoot, p.folder, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    for (const dep of Object.keys(manifest.dependencies ?? {})) if (byName.has(dep)) await add(dep);
  };
  await add(name);
  return deps;
}

const INTEGRATOR = `// An integrator's program: only @content-service/client and @content-service/spec.
import { readFileSync } from 'node:fs';
import { COLLECTIONS, createContentClient, createMemoryStore, syncItems, verifyWebhook } from '@content-service/client';
import { loadSpec } from '@content-service/spec';
import type { Event } from '@content-service/spec/types';

interface Vector { name: string; secret: string; timestamp: string; body: string; signature: string }

const client = createContentClient({ baseUrl: process.env.CONTENT_SERVICE_URL!, token: process.env.SYNC_TOKEN! });
const store = createMemoryStore();
const mirrored: Record<string, number> = {};
for (const collection of COLLECTIONS) {
  await syncItems(client, collection, store);
  mirrored[collection] = store.snapshot(collection).size;
}
const again = await syncItems(client, 'events', store);
await client.close();
const titles: Event['trcid'][] = [...store.snapshot('events').values()].map((e) => e.trcid);

const vectors = JSON.parse(readFileSync(process.env.VECTORS!, 'utf8')) as { valid: Vector[]; invalid: Vector[] };
const verify = (v: Vector) =>
  verifyWebhook(
    v.body,
    { 'X-Service-Timestamp': v.timestamp, 'X-Service-Signature': v.signature, 'X-Service-Delivery': 'release-check-1' },
    v.secret,
    { now: Number(v.timestamp) * 1000 },
  ).ok;
const wrong = [...vectors.valid.filter((v) => !verify(v)), ...vectors.invalid.filter(verify)].map((v) => v.name);

console.log(JSON.stringify({ mirrored, events: titles.length, repeatUpserts: again.upserted, vectors: vectors.valid.length + vectors.invalid.length, wrong, spec: loadSpec().sha256 }));
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2023',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    types: ['node'],
  },
  files: ['integrator.ts'],
};

/** The shell commands of the README's GitHub Actions and GitLab CI jobs (`run:` steps, `script:`). */
async function readmeSnippets(): Promise<{ name: string; commands: string[] }[]> {
  const readme = await readFile(path.join(repoRoot, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^(GitHub Actions|GitLab CI) job[^\n]*\n\n```yaml\n([\s\S]*?)```/gm)];
  expect(blocks.length === 2, 'README has a GitHub Actions and a GitLab CI job');
  return blocks.map(([, name, text]) => {
    const job = Object.values(parse(text!) as Record<string, { steps?: { run?: string }[]; script?: string[] }>)[0]!;
    const commands = job.steps ? job.steps.flatMap((s) => (s.run ? [s.run] : [])) : (job.script ?? []);
    return { name: name!, commands };
  });
}

async function checkNode(major: number, work: string, packed: readonly PackedPackage[]): Promise<void> {
  console.log(`\n==> Node ${major}`);
  const nodeDir = path.join(work, `node${major}`);
  await installProject(nodeDir, { allowScripts: { node: true }, dependencies: { node: `${major}` } });
  const project = path.join(work, `project-node${major}`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: [path.join(nodeDir, 'node_modules/.bin'), path.join(project, 'node_modules/.bin'), process.env.PATH].join(
      path.delimiter,
    ),
  };
  for (const key of Object.keys(env)) if (key.startsWith('CONFORMANCE_') || key.startsWith('npm_')) delete env[key];
  const version = await run('node', ['--version'], { cwd: work, env });
  expect(version.out.startsWith(`v${major}.`), `node on the PATH is ${version.out.trim()}`);
  const deps = Object.fromEntries(packed.map((p) => [p.name, `file:${p.tarball}`]));
  const install = await installProject(
    project,
    { dependencies: deps, devDependencies: { typescript: '^5.9.3', '@types/node': `^${major}` } },
    env,
  );
  console.log(`  installed in ${seconds(install.ms)} (${install.packages} packages)`);

  const feed = await wireFeed();
  const service = await startReferenceService({
    command: [path.join(project, 'node_modules/.bin/content-service')],
    cwd: project,
    env: { ...cleanEnv(env), ...REFERENCE_ENV, FEEDS_FILE: feed.feedsFile },
  });
  try {
    expect(service.baseUrl, `1. content-service listens at ${service.baseUrl}`);
    const docs = await fetch(new URL('/docs/', service.baseUrl));
    expect(docs.status === 200, `   the API reference at /docs/ answers ${docs.status}`);

    const tokens = {
      CONFORMANCE_TOKEN: service.tokens.consumer,
      CONFORMANCE_FULL_TOKEN: service.tokens.full,
      CONFORMANCE_ADMIN_TOKEN: service.tokens.admin,
      CONFORMANCE_SESSION_USER: service.user.username,
      CONFORMANCE_SESSION_PASSWORD: service.user.password,
    };
    const reportDir = path.join(project, 'reports/certification');
    const cert = await run(
      'content-conformance',
      [
        '--base-url',
        service.baseUrl,
        '--profile',
        'certification',
        '--account-id',
        service.accountId,
        '--report-dir',
        reportDir,
        ...feed.args,
        ...REFERENCE_TIMING,
      ],
      { cwd: project, env: { ...env, ...tokens } },
    );
    const tail = cert.out.split('\n').slice(-4).join('\n');
    expect(cert.code === 0, `2. content-conformance --profile certification exits 0 in ${seconds(cert.ms)}`, cert.out);
    console.log(tail.replace(/^/gm, '      '));
    for (const file of ['result.json', 'junit.xml', 'report.html'])
      expect(existsSync(path.join(reportDir, file)), `   report ${file} written`);
    const verdict = (JSON.parse(await readFile(path.join(reportDir, 'result.json'), 'utf8')) as { verdict: string })
      .verdict;
    expect(verdict === 'pass', `   verdict ${verdict}`);

    await writeFile(path.join(project, 'integrator.ts'), INTEGRATOR);
    await writeFile(path.join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    const tsc = await run('node', [path.join(project, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
      cwd: project,
      env,
    });
    expect(tsc.code === 0, '3. the integrator program type-checks (strict tsc --noEmit)', tsc.out);
    const program = await run('node', ['integrator.ts'], {
      cwd: project,
      env: { ...env, CONTENT_SERVICE_URL: service.baseUrl, SYNC_TOKEN: service.tokens.full, VECTORS },
    });
    expect(program.code === 0, '   it runs', program.out);
    const summary = JSON.parse(program.out.trim().split('\n').at(-1)!) as {
      mirrored: Record<string, number>;
      repeatUpserts: number;
      vectors: number;
      wrong: string[];
      spec: string;
    };
    const mirrored = Object.values(summary.mirrored).reduce((a, b) => a + b, 0);
    expect(mirrored > 0 && summary.mirrored.events! > 0, `   synced ${mirrored} demo items into a memory store`);
    expect(summary.repeatUpserts === 0, '   a second sync fetches nothing new');
    expect(
      summary.wrong.length === 0,
      `   ${summary.vectors} signature vectors verified as expected`,
      summary.wrong.join(),
    );
    expect(summary.spec === loadSpec().sha256, '   the installed spec is the repository one');

    await checkMock(project, env);
    await checkWebhooksDevLoop(project, env);
    await checkReadmes(project, env, packed);

    for (const snippet of await readmeSnippets()) {
      for (const command of snippet.commands) {
        await rm(path.join(project, 'reports/conformance'), { recursive: true, force: true });
        const ran = await run('bash', ['-euo', 'pipefail', '-c', command], {
          cwd: project,
          env: {
            ...env,
            ...tokens,
            CONTENT_SERVICE_URL: service.baseUrl,
            CONFORMANCE_ACCOUNT: service.accountId,
            // The sandbox's short webhook schedule (REFERENCE_TIMING), as a CI variable would set it.
            CONFORMANCE_WEBHOOK_WAIT: REFERENCE_TIMING[1],
            CONFORMANCE_WEBHOOK_QUIET: REFERENCE_TIMING[3],
            CONFORMANCE_WEBHOOK_SLOW: REFERENCE_TIMING[5],
            CONFORMANCE_ASSET_OVERSIZE: REFERENCE_TIMING[7],
          },
        });
        expect(ran.code === 0, `5. ${snippet.name} job runs as shell in ${seconds(ran.ms)}`, ran.out);
        expect(existsSync(path.join(project, 'reports/conformance/junit.xml')), '   its report is written');
      }
    }
  } finally {
    await service.stop();
    await feed.remove();
  }
}

/** 4: the installed mock, on the port its --port names, answers GET /api/events with one of the spec's examples. */
async function checkMock(project: string, env: NodeJS.ProcessEnv): Promise<void> {
  const port = await freePort();
  const bin = path.join(project, 'node_modules/.bin/content-mock');
  const version = await run(bin, ['--version'], { cwd: project, env });
  expect(version.code === 0 && /^content-mock \S+ \(Prism /.test(version.out), `4. ${version.out.trim()}`, version.out);
  const child = spawn(bin, ['--port', String(port)], { cwd: project, env, stdio: 'ignore' });
  try {
    const deadline = Date.now() + 90_000;
    let response: Response | undefined;
    while (!response && Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`release check failed: content-mock exited with ${child.exitCode}`);
      response = await fetch(`http://127.0.0.1:${port}/api/events`, {
        headers: { Authorization: 'Bearer release-check' },
        signal: AbortSignal.timeout(2000),
      }).catch(() => undefined);
      if (!response) await new Promise((r) => setTimeout(r, 250));
    }
    expect(response?.status === 200, `   content-mock --port ${port} answers GET /api/events with ${response?.status}`);
    const body: unknown = await response!.json();
    const { document } = loadSpec();
    const media = resolveRef(document, document.paths['/events'].get.responses['200']).content['application/json'];
    const examples = Object.values(media.examples ?? {}).map((e) => resolveRef<{ value: unknown }>(document, e).value);
    expect(
      examples.some((e) => isDeepStrictEqual(e, body)),
      `   with one of the spec's ${examples.length} examples`,
    );
    const rejected = await fetch(`http://127.0.0.1:${port}/api/events?size=2001`, {
      headers: { Authorization: 'Bearer release-check' },
    });
    const message = ((await rejected.json()) as { message?: string }).message;
    expect(message === 'size must not exceed 2000 (requested: 2001)', `   size=2001 answers "${message}"`);
  } finally {
    child.kill('SIGTERM');
  }
}

/**
 * 4b: the installed `content-webhooks listen` verifies what the installed `trigger` signs, and the
 * installed `content-conformance receiver` certifies that listener (it verifies, dedupes, answers 401).
 */
async function checkWebhooksDevLoop(project: string, env: NodeJS.ProcessEnv): Promise<void> {
  const port = await freePort();
  const secret = `release-check-${Date.now()}`;
  const bin = path.join(project, 'node_modules/.bin/content-webhooks');
  const child = spawn(bin, ['listen', '--port', String(port), '--secret', secret], {
    cwd: project,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  try {
    const deadline = Date.now() + 60_000;
    while (!out.includes('Listening for webhook deliveries') && Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`release check failed: content-webhooks listen exited: ${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const url = `http://127.0.0.1:${port}/`;
    const trigger = await run(bin, ['trigger', 'EventUpdated', '--forward-to', url, '--secret', secret], {
      cwd: project,
      env,
    });
    expect(
      trigger.code === 0 && trigger.out.includes('HTTP 200') && out.includes('signature ok'),
      '4b. content-webhooks trigger EventUpdated reaches content-webhooks listen, which verifies it',
      `${trigger.out}\n${out}`,
    );
    const certify = await run(
      path.join(project, 'node_modules/.bin/content-conformance'),
      ['receiver', '--url', url, '--secret', secret, '--reporters', 'console', '--no-color'],
      { cwd: project, env },
    );
    expect(
      certify.code === 0,
      `   content-conformance receiver certifies that listener in ${seconds(certify.ms)}`,
      certify.out,
    );
  } finally {
    child.kill('SIGTERM');
  }
}

/** The bins of the packages (name → package), from the release definitions. */
const BINS: Record<string, string> = Object.fromEntries(
  PACKAGES.flatMap((def) => Object.keys(def.launchers).map((bin) => [bin, def.folder])),
);

/** 6: the installed READMEs: TypeScript blocks type-check, shell lines use options the commands have. */
async function checkReadmes(project: string, env: NodeJS.ProcessEnv, packed: readonly PackedPackage[]): Promise<void> {
  const helps = new Map<string, string>();
  for (const bin of Object.keys(BINS)) {
    const help = await run(path.join(project, 'node_modules/.bin', bin), ['--help'], { cwd: project, env });
    expect(
      help.code === 0 && new RegExp(`Usage:\\s+${bin}\\b`).test(help.out),
      `6. ${bin} --help names ${bin}`,
      help.out,
    );
    helps.set(bin, help.out);
  }
  const binOfPackage = new Map(
    packed.map((p) => [p.name, Object.entries(BINS).find(([, folder]) => folder === p.folder)?.[0]]),
  );
  const files: string[] = [];
  for (const p of packed) {
    const file = path.join(project, 'node_modules', p.name, 'README.md');
    const text = await readFile(file, 'utf8');
    const readme = { name: `${p.name}/README.md`, file, text, lines: text.split('\n') };
    let options = 0;
    for (const block of codeBlocks(readme)) {
      if (block.lang === 'ts') {
        const name = `readme-${p.folder}-L${block.line}.ts`;
        await writeFile(path.join(project, name), `${block.code}\n\nexport {};\n`);
        files.push(name);
      }
      if (block.lang !== 'sh') continue;
      for (const line of block.code.split('\n')) {
        const command = line.replace(/#.*$/, '');
        const named = /(?:^|\s)npx\s+(?:--yes\s+)?(@content-service\/[a-z-]+|content-[a-z]+)\b(.*)$/.exec(command);
        if (!named) continue;
        const bin = named[1]!.startsWith('@') ? binOfPackage.get(named[1]!) : named[1]!;
        if (bin === undefined) continue;
        for (const [, option] of named[2]!.matchAll(/(?:^|\s)(--[a-z][a-z-]*)/g)) {
          options++;
          expect(helps.get(bin)!.includes(option!), `   ${p.name} README: ${bin} ${option} is in its --help`, line);
        }
      }
    }
    console.log(`  ok  ${p.name} README: ${options} command options checked`);
  }
  await writeFile(path.join(project, 'tsconfig.readmes.json'), JSON.stringify({ ...TSCONFIG, files }, null, 2));
  const tsc = await run(
    'node',
    [path.join(project, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.readmes.json'],
    {
      cwd: project,
      env,
    },
  );
  expect(tsc.code === 0, `   the READMEs' ${files.length} TypeScript blocks type-check (strict tsc --noEmit)`, tsc.out);
}

/** The client installed alone: no optional driver, so `content-sync --out` says how to install one. */
async function checkMissingDriver(dir: string): Promise<void> {
  const ran = await run(
    process.execPath,
    [path.join(dir, 'node_modules/.bin/content-sync'), '--base-url', 'http://127.0.0.1:9/api', '--token', 'x'],
    { cwd: dir },
  );
  expect(
    ran.code === 2 && /Install it: npm install @electric-sql\/pglite@\S+/.test(ran.out),
    'content-sync without @electric-sql/pglite exits 2 with the npm line that installs it',
    ran.out,
  );
}

const work = await mkdtemp(path.join(tmpdir(), 'content-service-release-'));
console.log(`release check in ${work}`);
try {
  const packed = await releasePack();
  console.log('\n==> each package installed alone into an empty project');
  const rows: string[] = [];
  for (const p of packed) {
    const alone = await installProject(path.join(work, `alone-${p.folder}`), {
      dependencies: await withSiblings(p.name, packed),
    });
    if (p.name === '@content-service/client') await checkMissingDriver(path.join(work, `alone-${p.folder}`));
    rows.push(
      `${p.name.padEnd(30)} ${formatBytes(p.bytes).padStart(10)} ${String(p.files).padStart(5)} files ${String(alone.packages).padStart(5)} packages installed in ${seconds(alone.ms)}`,
    );
    console.log(rows.at(-1));
  }
  for (const major of NODE_MAJORS) await checkNode(major, work, packed);
  console.log(`\n${rows.join('\n')}`);
  console.log(`\nrelease check passed on Node ${NODE_MAJORS.join(' and ')} in ${seconds(performance.now() - started)}`);
} finally {
  if (!process.env.KEEP_RELEASE_CHECK) await rm(work, { recursive: true, force: true });
}
