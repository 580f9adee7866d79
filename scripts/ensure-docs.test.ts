import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { repoRoot } from './lib/run.ts';
import { ensureDocs, prestart, staleReason } from './ensure-docs.ts';

// The build is injected: a stand-in that writes the page, so no test runs redocly.

describe('npm start prestart (ensure-docs)', () => {
  let dir: string;
  let input: string;
  let output: string;
  const build = vi.fn(async () => {
    fs.mkdirSync(path.dirname(output), { recursive: true });
    fs.writeFileSync(output, '<!DOCTYPE html><title>Content Service API</title>');
  });
  const at = (file: string, seconds: number) => fs.utimesSync(file, seconds, seconds);

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ensure-docs-'));
    input = path.join(dir, 'generated/openapi.yaml');
    output = path.join(dir, 'docs/build/index.html');
    fs.mkdirSync(path.dirname(input), { recursive: true });
    fs.writeFileSync(input, 'openapi: 3.1.1\n');
    build.mockClear();
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('when the page is missing, then it is built once and exists afterwards', async () => {
    const log: string[] = [];
    const result = await ensureDocs({ input, output, build, log: (line) => log.push(line) });
    expect(build).toHaveBeenCalledTimes(1);
    expect(result).toMatchObject({ built: true, reason: `${output} is missing` });
    expect(fs.existsSync(output)).toBe(true);
    expect(log).toEqual([
      `docs: ${output} is missing; building it (npm run docs) ...`,
      expect.stringMatching(/^docs: .*index\.html built in \d+ ms$/),
    ]);
  });

  it('when the page is newer than the spec, then nothing is built and nothing is said', async () => {
    await build();
    build.mockClear();
    at(input, 1_700_000_000);
    at(output, 1_700_000_100);
    const log: string[] = [];
    expect(await ensureDocs({ input, output, build, log: (line) => log.push(line) })).toEqual({ built: false });
    expect(build).not.toHaveBeenCalled();
    expect(log).toEqual([]);
  });

  it('when the page is as old as the spec, then it counts as fresh', async () => {
    await build();
    at(input, 1_700_000_000);
    at(output, 1_700_000_000);
    expect(staleReason(input, output)).toBeUndefined();
  });

  it('when the spec changed after the page was built, then it is rebuilt', async () => {
    await build();
    build.mockClear();
    at(output, 1_700_000_000);
    at(input, 1_700_000_100);
    const result = await ensureDocs({ input, output, build });
    expect(result).toMatchObject({ built: true, reason: `${output} is older than ${input}` });
    expect(build).toHaveBeenCalledTimes(1);
    expect(fs.statSync(output).mtimeMs).toBeGreaterThan(fs.statSync(input).mtimeMs);
  });

  it('when the build fails, then ensureDocs throws, but the prestart only warns, so npm start goes on', async () => {
    const failing = async () => {
      throw new Error('generated/openapi.yaml is missing: run `npm run generate` first');
    };
    await expect(ensureDocs({ input, output, build: failing })).rejects.toThrow('generated/openapi.yaml is missing');
    const warnings: string[] = [];
    await expect(
      prestart({ input, output, build: failing, log: () => {}, warn: (line) => warnings.push(line) }),
    ).resolves.toBeUndefined();
    expect(warnings).toEqual([
      'docs: not built, starting without them (run `npm run docs` to retry): generated/openapi.yaml is missing: run `npm run generate` first',
    ]);
    expect(fs.existsSync(output)).toBe(false);
  });

  it('when npm start runs, then npm runs this script first as its prestart', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.prestart).toBe('node scripts/ensure-docs.ts');
  });
});
