// `npm run release:pack`: compiles the sources once with tsc (tsconfig.build.json: JavaScript with
// declarations, `.ts` imports rewritten to `.js`) and packs one tarball per package into
// build/release/.
//
// Each package keeps the repository's layout below its root (client/…, generated/openapi.json, …),
// so every relative path in the sources (`../package.json`, `../../generated/openapi.json`,
// `conformance/…` from PACKAGE_ROOT) holds unchanged in the tarball. An import that leaves the
// package is rewritten to the package that ships the file (PROVIDED); any other one, and any bare
// import the manifest does not declare, fails the build.
import { execFileSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { ensureDocs } from './ensure-docs.ts';
import { repoRoot } from './lib/run.ts';

export const BUILD_DIR = path.join(repoRoot, 'build');
export const RELEASE_DIR = path.join(BUILD_DIR, 'release');
const TSC_OUT = path.join(BUILD_DIR, 'tsc');

interface PackageDef {
  /** Workspace folder holding package.json and README.md. */
  folder: string;
  /** Source folders whose compiled modules and data files the package ships. */
  code: string[];
  /** Further repository files it ships at their repository path. */
  data: string[];
  /** bin name → launcher source (written to bin/<name>.js). */
  launchers: Record<string, string>;
  /** Ships declaration files: a library, not only a command. */
  types: boolean;
}

/** `main(argv)` of a CLI module decides the exit code. */
const runMain = (module: string) =>
  `import { main } from '../${module}';\nprocess.exitCode = await main(process.argv.slice(2));\n`;

export const PACKAGES: readonly PackageDef[] = [
  {
    folder: 'spec',
    code: ['spec/index.ts', 'spec/json.ts', 'spec/access', 'generated/types.ts', 'generated/constants.ts'],
    data: [
      'spec/requirements.yaml',
      'generated/openapi.json',
      'generated/openapi.interface.json',
      'generated/openapi.yaml',
      'generated/openapi.dereferenced.json',
    ],
    launchers: {},
    types: true,
  },
  {
    folder: 'client',
    code: ['client'],
    data: [],
    launchers: { 'content-sync': runMain('client/cli.js'), 'content-webhooks': runMain('client/webhooksCli.js') },
    types: true,
  },
  {
    folder: 'conformance',
    code: ['conformance'],
    data: ['generated/openapi.json', 'generated/openapi.interface.json', 'spec/requirements.yaml'],
    launchers: { 'content-conformance': runMain('conformance/cli.js') },
    types: false,
  },
  {
    folder: 'reference-impl',
    code: ['reference-impl/src', 'generated/constants.ts'],
    data: ['docs/build/index.html'],
    // main.js starts the service when imported (as `node reference-impl/src/main.ts` does).
    launchers: { 'content-service': `await import('../reference-impl/src/main.js');\n` },
    types: false,
  },
  {
    folder: 'mock',
    code: ['mock/start.ts', 'mock/front.ts', 'mock/cli.ts'],
    data: ['generated/openapi.yaml'],
    launchers: { 'content-mock': runMain('mock/cli.js') },
    types: false,
  },
];

/** Compiled modules that other packages import by package name instead of shipping a copy. */
const PROVIDED: Record<string, string> = {
  'spec/index.js': '@content-service/spec',
  'spec/json.js': '@content-service/spec/json',
  'generated/types.js': '@content-service/spec/types',
  'generated/constants.js': '@content-service/spec/constants',
  'client/index.js': '@content-service/client',
  'client/webhooks/verify.js': '@content-service/client',
  'client/webhooks/sampleDelivery.js': '@content-service/client',
};

/** Never shipped: tests, their helpers and fixtures, the client's benchmark. */
export const NOT_SHIPPED =
  /(\.test\.|\/test\/|\/testing\/|\/fixtures\/|\/selftest\/|\/scaleout\/|^client\/integration\/|^client\/bench\.)/;

/** The TypeScript modules the packages ship (repository paths, sorted). */
export function shippedModules(): string[] {
  const modules: string[] = [];
  for (const pkg of PACKAGES)
    for (const code of pkg.code) {
      const at = path.join(repoRoot, code);
      const files = fs.statSync(at).isDirectory()
        ? fs.readdirSync(at, { recursive: true, encoding: 'utf8' }).map((f) => path.posix.join(code, f))
        : [code];
      modules.push(...files.filter((f) => f.endsWith('.ts') && !f.includes('node_modules') && !NOT_SHIPPED.test(f)));
    }
  return [...new Set(modules)].sort();
}

const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\2/g;

function tracked(prefix: string): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', prefix], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  return out.split('\n').filter((f) => f !== '' && fs.existsSync(path.join(repoRoot, f)));
}

function copy(from: string, to: string): void {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
}

/** Repository paths the package ships (compiled names for modules). */
function shippedFiles(def: PackageDef): { from: string; rel: string }[] {
  const files: { from: string; rel: string }[] = [];
  for (const source of def.code)
    for (const file of tracked(source)) {
      if (NOT_SHIPPED.test(file) || file.endsWith('.md') || file === `${def.folder}/package.json`) continue;
      if (file.endsWith('.ts')) {
        const base = file.slice(0, -'.ts'.length);
        const js = path.join(TSC_OUT, `${base}.js`);
        if (!fs.existsSync(js)) continue; // not part of the build (e.g. a test-only helper)
        files.push({ from: js, rel: `${base}.js` });
        if (def.types) files.push({ from: path.join(TSC_OUT, `${base}.d.ts`), rel: `${base}.d.ts` });
      } else files.push({ from: path.join(repoRoot, file), rel: file });
    }
  for (const file of def.data) files.push({ from: path.join(repoRoot, file), rel: file });
  return files;
}

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** Rewrites imports that leave the package; throws on one it cannot place. */
function linkImports(text: string, rel: string, shipped: Set<string>, manifest: Manifest): string {
  const declared = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);
  return text.replace(SPECIFIER, (whole, lead: string, quote: string, spec: string) => {
    if (spec.startsWith('.')) {
      // Declaration files keep the sources' `.ts` specifiers; their compiled files are `.js`.
      if (spec.endsWith('.ts') && !spec.endsWith('.d.ts')) spec = `${spec.slice(0, -'.ts'.length)}.js`;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec));
      if (shipped.has(target)) return `${lead}${quote}${spec}${quote}`;
      const name = PROVIDED[target];
      if (name === undefined) throw new Error(`${manifest.name}: ${rel} imports ${spec}, which it does not ship`);
      if (!declared.has(name.split('/').slice(0, 2).join('/')))
        throw new Error(`${manifest.name}: ${rel} needs ${name}; add it to its dependencies`);
      return `${lead}${quote}${name}${quote}`;
    }
    const bare = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
    const typesOnly = rel.endsWith('.d.ts') && declared.has(`@types/${bare}`);
    if (!spec.startsWith('node:') && !builtinModules.includes(bare) && !declared.has(bare) && !typesOnly)
      throw new Error(`${manifest.name}: ${rel} imports ${spec}, not among its dependencies`);
    return whole;
  });
}

export interface PackedPackage {
  name: string;
  folder: string;
  tarball: string;
  bytes: number;
  files: number;
}

/** Stages the package; returns its folder and the files it must ship. */
function stage(def: PackageDef): { dir: string; shipped: string[] } {
  const dir = path.join(BUILD_DIR, 'packages', def.folder);
  fs.rmSync(dir, { recursive: true, force: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, def.folder, 'package.json'), 'utf8')) as Manifest;
  const files = shippedFiles(def);
  const shipped = new Set([...files.map((f) => f.rel), 'package.json']);
  for (const { from, rel } of files) {
    const to = path.join(dir, rel);
    if (/\.(js|d\.ts)$/.test(rel)) {
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.writeFileSync(to, linkImports(fs.readFileSync(from, 'utf8'), rel, shipped, manifest));
    } else copy(from, to);
  }
  for (const [name, body] of Object.entries(def.launchers)) {
    const file = path.join(dir, 'bin', `${name}.js`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `#!/usr/bin/env node\n${body}`, { mode: 0o755 });
  }
  copy(path.join(repoRoot, def.folder, 'package.json'), path.join(dir, 'package.json'));
  copy(path.join(repoRoot, def.folder, 'README.md'), path.join(dir, 'README.md'));
  return { dir, shipped: files.map((f) => f.rel) };
}

export async function releasePack(log: (line: string) => void = console.log): Promise<PackedPackage[]> {
  await ensureDocs({ log });
  fs.rmSync(TSC_OUT, { recursive: true, force: true });
  fs.rmSync(RELEASE_DIR, { recursive: true, force: true });
  fs.mkdirSync(RELEASE_DIR, { recursive: true });
  log('tsc -p tsconfig.build.json ...');
  execFileSync(
    process.execPath,
    [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: repoRoot,
      stdio: 'inherit',
    },
  );
  const packed: PackedPackage[] = [];
  for (const def of PACKAGES) {
    const { dir, shipped } = stage(def);
    const [info] = JSON.parse(
      execFileSync('npm', ['pack', dir, '--pack-destination', RELEASE_DIR, '--json', '--silent'], {
        cwd: repoRoot,
        encoding: 'utf8',
      }),
    ) as { name: string; filename: string; size: number; entryCount: number; files: { path: string }[] }[];
    // A staged file that package.json's `files` leaves out would be missing only once installed.
    const inTarball = new Set(info!.files.map((f) => f.path));
    const left = shipped.filter((rel) => !inTarball.has(rel));
    if (left.length > 0) throw new Error(`${info!.name}: not in its package.json "files": ${left.join(', ')}`);
    packed.push({
      name: info!.name,
      folder: def.folder,
      tarball: path.join(RELEASE_DIR, info!.filename),
      bytes: info!.size,
      files: info!.entryCount,
    });
  }
  return packed;
}

export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
}

if (import.meta.main) {
  const packed = await releasePack();
  for (const p of packed)
    console.log(
      `${p.name.padEnd(30)} ${formatBytes(p.bytes).padStart(10)} ${String(p.files).padStart(5)} files  ${path.relative(repoRoot, p.tarball)}`,
    );
}
