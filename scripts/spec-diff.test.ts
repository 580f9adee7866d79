import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { breakingChanges } from './spec-diff.ts';

const exec = promisify(execFile);
const fixtures = path.join(import.meta.dirname, 'fixtures/spec-diff');
const base = path.join(fixtures, 'base.yaml');
const head = path.join(fixtures, 'head.yaml');

describe('npm run spec:diff', () => {
  it('when a path is removed, a maximum tightened and a property made required, then each is named as breaking', async () => {
    const changes = await breakingChanges(base, head);
    const redocly = changes
      .filter((c) => c.tool === 'redocly diff')
      .map((c) => c.rule)
      .sort();
    expect(redocly).toEqual(['path-removed', 'required-properties-added', 'schema-constraint-changed']);

    const smart = changes.filter((c) => c.tool === 'api-smart-diff');
    expect(smart.map((c) => c.pointer)).toEqual(
      expect.arrayContaining([
        '#/paths/~1venues/get',
        '#/paths/~1events/get/parameters/0/schema/maximum',
        '#/paths/~1events/post/requestBody/content/application~1json/schema/required/1',
      ]),
    );
  });

  it('when the two sides are identical, then no change is breaking', async () => {
    expect(await breakingChanges(base, base)).toEqual([]);
  });

  it('when run from the command line on the fixture pair, then it prints each change and exits 1', async () => {
    const error = await exec(process.execPath, ['scripts/spec-diff.ts', '--base', base, '--head', head], {
      cwd: path.resolve(import.meta.dirname, '..'),
    }).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(error?.code).toBe(1);
    expect(error?.stderr).toContain('[path-removed] Path `/venues` was removed.');
    expect(error?.stderr).toContain("[schema-constraint-changed] Upper bound changed from '<= 2000' to '<= 1000'.");
    expect(error?.stderr).toContain('[required-properties-added]');
  });

  it('when run on identical files, then it exits 0', async () => {
    const { stdout } = await exec(process.execPath, ['scripts/spec-diff.ts', '--base', base, '--head', base], {
      cwd: path.resolve(import.meta.dirname, '..'),
    });
    expect(stdout).toContain('No breaking changes');
  });
});
