// `npm run lint` fails on a folder cycle in conformance/ (and reference-impl/), also one made of
// acyclic files, and on conformance/model/ importing the rest of the suite: the folder rules of
// .dependency-cruiser.folders.cjs, run here on a small tree that breaks each of them.

import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cruise, type IForbiddenRuleType } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const { forbidden } = createRequire(import.meta.url)('../../.dependency-cruiser.folders.cjs') as {
  forbidden: IForbiddenRuleType[];
};

async function violations(root: string, files: Record<string, string>): Promise<string[]> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), text);
  }
  const result = await cruise(['conformance'], { validate: true, ruleSet: { forbidden }, baseDir: root });
  if (typeof result.output === 'string') throw new Error('expected a cruise result, not text');
  return result.output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
}

describe('the folder rules of lint', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'ctf-folders-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('when two folders of conformance/ import each other through different files, then that is a violation', async () => {
    const found = await violations(join(root, 'cycle'), {
      'conformance/engine/run.ts': "import { check } from '../checks/check.ts';\nexport const run = check;\n",
      'conformance/checks/check.ts': 'export const check = 1;\n',
      'conformance/checks/uses.ts': "import { helper } from '../engine/helper.ts';\nexport const uses = helper;\n",
      'conformance/engine/helper.ts': 'export const helper = 2;\n',
    });
    expect(found).toEqual([
      'no-circular-folders: conformance/checks → conformance/engine',
      'no-circular-folders: conformance/engine → conformance/checks',
    ]);
  });

  it('when conformance/model/ imports another folder of the suite, then that is a violation; one-way imports are not', async () => {
    const found = await violations(join(root, 'model'), {
      'conformance/model/check.ts': "import { context } from '../engine/context.ts';\nexport const check = context;\n",
      'conformance/engine/context.ts': 'export const context = 1;\n',
      'conformance/reporters/console.ts': "import { check } from '../model/check.ts';\nexport const line = check;\n",
    });
    expect(found).toEqual([
      'conformance-model-imports-nothing: conformance/model/check.ts → conformance/engine/context.ts',
    ]);
  });
});
