// The interop matrix: every spec file @content-service/spec publishes (generated/openapi*.{json,yaml},
// shipped as they are) loaded by peer tools nobody here wrote, as reviewers and integrators run
// them: two strict OpenAPI 3.1 validators, Spectral's `spectral:oas` ruleset, two parsers and two
// Postman converters. Each tool is a devDependency from npm; the CLIs run on the Node 24 that runs
// the tests. A document that a tool rejects fails here with the tool's own words.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { validate as readmeValidate } from '@readme/openapi-parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import Converter from 'openapi-to-postmanv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runNodeScript, type RunResult } from '../../scripts/lib/run.ts';
import { HTTP_METHODS } from '../../spec/index.ts';

const tool = (rel: string) => path.join(repoRoot, 'node_modules', rel);
const SCALAR = tool('@scalar/cli/index.js');
const SPECTRAL = tool('@stoplight/spectral-cli/dist/index.js');
const PORTMAN = tool('@apideck/portman/bin/portman');
const SPECTRAL_RULESET = path.join(repoRoot, 'tests/contract/spectral.yaml');

/** The spec files the package ships, from its own manifest, so a new one is tested too. */
const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'spec/package.json'), 'utf8')) as { files: string[] };
const FILES = manifest.files.filter((f) => /^generated\/openapi[^/]*\.(json|ya?ml)$/.test(f));

const openapiJson = JSON.parse(fs.readFileSync(path.join(repoRoot, 'generated/openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, unknown>>;
};
const OPERATIONS = Object.values(openapiJson.paths).reduce(
  (n, item) => n + HTTP_METHODS.filter((m) => item[m]).length,
  0,
);

type PostmanItem = { name: string; item?: PostmanItem[]; request?: unknown };
const requestsIn = (items: PostmanItem[]): number =>
  items.reduce((n, item) => n + (item.item ? requestsIn(item.item) : item.request ? 1 : 0), 0);

const shown = (run: RunResult) => `${run.stdout}\n${run.stderr}`.slice(-4000);

let work = '';
// Spectral takes the longest (half a minute on the dereferenced file): it starts first and runs
// while the other tools do.
let spectral: Promise<RunResult>;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-interop-'));
  spectral = runNodeScript(SPECTRAL, [
    'lint',
    '--ruleset',
    SPECTRAL_RULESET,
    '--format',
    'json',
    '--fail-severity',
    'error',
    '--quiet',
    ...FILES,
  ]);
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe('the published spec files in peer tools', () => {
  it('when the package manifest is read, then it ships the four spec files this matrix loads', () => {
    expect(FILES.sort()).toEqual([
      'generated/openapi.dereferenced.json',
      'generated/openapi.interface.json',
      'generated/openapi.json',
      'generated/openapi.yaml',
    ]);
    expect(OPERATIONS).toBeGreaterThan(40);
  });

  it.each(FILES)(
    'when @seriousme/openapi-schema-validator validates %s, then it is valid OpenAPI 3.1',
    async (file) => {
      const validator = new Validator();
      const result = await validator.validate(path.join(repoRoot, file));
      expect(result.errors ?? [], file).toEqual([]);
      expect(result.valid).toBe(true);
      expect(validator.version).toBe('3.1');
    },
  );

  it.each(FILES)(
    'when `scalar document validate` reads %s, then it matches the OpenAPI specification',
    async (file) => {
      const run = await runNodeScript(SCALAR, ['document', 'validate', file]);
      expect(run.code, shown(run)).toBe(0);
      expect(run.stdout).toContain('Matches the OpenAPI specification');
    },
    60_000,
  );

  it('when Spectral lints every file with spectral:oas, then it reports no error', async () => {
    const run = await spectral;
    const results = JSON.parse(run.stdout || '[]') as {
      code: string;
      severity: number;
      source: string;
      path: string[];
    }[];
    const errors = results.filter((r) => r.severity === 0).map((r) => `${r.source}: ${r.code} at ${r.path.join('.')}`);
    expect(errors).toEqual([]);
    expect(run.code, shown(run)).toBe(0);
  }, 180_000);

  it.each(FILES)('when @apidevtools/swagger-parser validates %s, then it accepts it', async (file) => {
    const api = (await SwaggerParser.validate(path.join(repoRoot, file))) as { openapi?: string };
    expect(api.openapi).toMatch(/^3\.1\./);
  });

  it.each(FILES)('when @readme/openapi-parser validates %s, then it reports no error', async (file) => {
    const result = await readmeValidate(path.join(repoRoot, file));
    expect(result.valid ? [] : result.errors, file).toEqual([]);
  });

  it.each(FILES)(
    'when openapi-to-postmanv2 converts %s, then the collection has a request per operation',
    async (file) => {
      const data = fs.readFileSync(path.join(repoRoot, file), 'utf8');
      const result = await new Promise<{
        result: boolean;
        reason?: string;
        output?: { data: { item: PostmanItem[] } }[];
      }>((resolve, reject) =>
        Converter.convert({ type: 'string', data }, {}, (error, out) =>
          error ? reject(error) : resolve(out as never),
        ),
      );
      expect(result.reason).toBeUndefined();
      expect(result.result).toBe(true);
      expect(requestsIn(result.output![0]!.data.item)).toBe(OPERATIONS);
    },
  );

  // Portman dereferences fully and refuses the recursive schemas (an ontology node's children, a
  // property's sub-properties) unless told to leave those references alone: --ignoreCircularRefs,
  // as spec/README.md says.
  it.each(FILES)(
    'when Portman converts %s with --ignoreCircularRefs, then it writes a collection with a test per operation',
    async (file) => {
      const out = path.join(work, `${path.basename(file)}.postman.json`);
      const run = await runNodeScript(
        PORTMAN,
        ['--local', path.join(repoRoot, file), '--output', out, '--ignoreCircularRefs', '--includeTests'],
        { cwd: work },
      );
      expect(run.code, shown(run)).toBe(0);
      const collection = JSON.parse(fs.readFileSync(out, 'utf8')) as { item: PostmanItem[] };
      expect(requestsIn(collection.item)).toBe(OPERATIONS);
      expect(fs.readFileSync(out, 'utf8')).toContain('Schema is valid');
    },
    120_000,
  );
});

describe('the matrix itself', () => {
  // The faults this matrix was made for, put back into a copy of openapi.json: a merge patch's
  // `$ref: null` in an extension, and an array schema with only `prefixItems`.
  const broken = () => {
    const doc = structuredClone(openapiJson) as Record<string, any>;
    doc.paths['/events'].post.responses['201']['x-interface'] = { patch: { schema: { $ref: null } } };
    delete doc.components.schemas.GeoJsonPosition.items;
    const file = path.join(work, 'broken.json');
    fs.writeFileSync(file, JSON.stringify(doc));
    return file;
  };

  it('when a document carries those faults, then both strict validators and Spectral reject it', async () => {
    const file = broken();
    expect((await new Validator().validate(file)).valid).toBe(false);
    const scalar = await runNodeScript(SCALAR, ['document', 'validate', file]);
    expect(scalar.code, shown(scalar)).not.toBe(0);
    const spectral = await runNodeScript(SPECTRAL, ['lint', '--ruleset', SPECTRAL_RULESET, '--format', 'json', file]);
    const codes = (JSON.parse(spectral.stdout) as { code: string; path: string[] }[]).map(
      (r) => `${r.code} ${r.path.join('.')}`,
    );
    expect(codes).toContain('array-items components.schemas.GeoJsonPosition');
    expect(spectral.code).not.toBe(0);
  }, 120_000);
});
