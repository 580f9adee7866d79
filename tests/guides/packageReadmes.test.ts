// The README of every npm package (spec/, client/, conformance/, reference-impl/, mock/; each ships
// as the package's README.md) reads for someone who installed the package: it is titled with the
// package name, points at no file outside the package, and each ```ts block type-checks against
// the packages' real exports (mapped to their sources by tsconfig.json's `paths`). `npm run
// release:check` type-checks the same blocks again against the installed tarballs.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGES } from '../../scripts/release-pack.ts';
import { codeBlocks, repoRoot, type Guide } from './markdown.ts';

const readmes: (Guide & { packageName: string })[] = PACKAGES.map(({ folder }) => {
  const file = path.join(repoRoot, folder, 'README.md');
  const text = fs.readFileSync(file, 'utf8');
  const { name } = JSON.parse(fs.readFileSync(path.join(repoRoot, folder, 'package.json'), 'utf8')) as {
    name: string;
  };
  return { name: `${folder}/README.md`, file, text, lines: text.split('\n'), packageName: name };
});

const scratch = fs.mkdtempSync(path.join(import.meta.dirname, '.tmp-readmes-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('package READMEs', () => {
  it.each(readmes.map((r) => [r.name, r] as const))(
    'when %s is read, then it is titled with the package name',
    (_n, r) => {
      expect(r.lines[0]).toBe(`# ${r.packageName}`);
    },
  );

  it.each(readmes.map((r) => [r.name, r] as const))(
    'when %s is read, then it names no file outside the package',
    (_n, r) => {
      const outside = r.lines.flatMap((line, i) =>
        /(^|[\s(`'"])\.\.\//.test(line) || /ARCHITECTURE\.md/.test(line) ? [`${r.name}:${i + 1}: ${line.trim()}`] : [],
      );
      expect(outside).toEqual([]);
    },
  );

  it('when every TypeScript block is type-checked, then tsc reports no error', () => {
    const files: { file: string; where: string }[] = [];
    for (const readme of readmes)
      for (const block of codeBlocks(readme).filter((b) => b.lang === 'ts')) {
        const file = path.join(scratch, `${readme.name.split('/')[0]}_L${block.line}.ts`);
        fs.writeFileSync(file, `${block.code}\n\nexport {};\n`);
        files.push({ file, where: `${readme.name}:${block.line}` });
      }
    expect(files.length).toBeGreaterThan(4);
    fs.writeFileSync(
      path.join(scratch, 'tsconfig.json'),
      JSON.stringify({ extends: path.relative(scratch, path.join(repoRoot, 'tsconfig.json')), include: ['*.ts'] }),
    );
    const tsc = createRequire(path.join(repoRoot, 'package.json')).resolve('typescript/bin/tsc');
    const run = spawnSync(process.execPath, [tsc, '-p', path.join(scratch, 'tsconfig.json'), '--pretty', 'false'], {
      encoding: 'utf8',
      cwd: repoRoot,
    });
    const report = `${run.stdout}${run.stderr}`
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const hit = files.find((f) => line.includes(path.relative(repoRoot, f.file)));
        return hit ? `${hit.where} (block): ${line.slice(line.indexOf('): ') + 3)}` : line;
      });
    expect(report).toEqual([]);
  }, 120_000);
});
