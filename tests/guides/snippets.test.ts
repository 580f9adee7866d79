// Every ```ts block in docs/guides/*.md type-checks against the real exports of the client
// (`@content-service/client`, mapped to its sources by tsconfig.json's `paths`) and the rest of the
// repository: each block becomes a module in a scratch folder under tests/guides/ and `tsc --noEmit`
// runs over them with the repository's compiler options. An API renamed in client/index.ts makes this fail until the guides follow.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeBlocks, guidesDir, loadGuides, repoRoot } from './markdown.ts';

const TS_LANGS = new Set(['ts', 'typescript']);

interface Snippet {
  file: string;
  guide: string;
  /** Line of the opening fence in the guide. */
  fenceLine: number;
}

/** Relative import specifiers are written from docs/guides/; make them point at the same files from `dir`. */
function rebase(code: string, dir: string): string {
  return code.replace(
    /(\bfrom\s+|\bimport\s*\(\s*)(['"])(\.{1,2}\/[^'"]+)\2/g,
    (_m, lead: string, quote: string, spec: string) => {
      let rel = path.relative(dir, path.resolve(guidesDir, spec)).split(path.sep).join('/');
      if (!rel.startsWith('.')) rel = `./${rel}`;
      return `${lead}${quote}${rel}${quote}`;
    },
  );
}

const scratch = fs.mkdtempSync(path.join(import.meta.dirname, '.tmp-snippets-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const snippets: Snippet[] = [];
for (const guide of loadGuides()) {
  for (const block of codeBlocks(guide).filter((b) => TS_LANGS.has(b.lang))) {
    const name = `${guide.name.replace(/\.md$/, '')}_L${block.line}.ts`;
    const file = path.join(scratch, name);
    // `export {}` makes every block a module, so top-level await and repeated names are fine.
    fs.writeFileSync(file, `${rebase(block.code, scratch)}\n\nexport {};\n`);
    snippets.push({ file, guide: `docs/guides/${guide.name}`, fenceLine: block.line });
  }
}

describe('docs/guides/: TypeScript snippets', () => {
  it('when the guides are read, then there are TypeScript blocks, and some import the client', () => {
    expect(snippets.length).toBeGreaterThan(5);
    const importing = snippets.filter((s) =>
      fs.readFileSync(s.file, 'utf8').includes("from '@content-service/client'"),
    );
    expect(importing.length).toBeGreaterThan(3);
  });

  it('when every TypeScript block is type-checked with the repository settings, then tsc reports no error', () => {
    fs.writeFileSync(
      path.join(scratch, 'tsconfig.json'),
      JSON.stringify(
        { extends: path.relative(scratch, path.join(repoRoot, 'tsconfig.json')), include: ['*.ts'] },
        null,
        2,
      ),
    );
    const tsc = createRequire(path.join(repoRoot, 'package.json')).resolve('typescript/bin/tsc');
    const run = spawnSync(process.execPath, [tsc, '-p', path.join(scratch, 'tsconfig.json'), '--pretty', 'false'], {
      encoding: 'utf8',
      cwd: repoRoot,
    });
    // Name each error by the guide's own file and line instead of the scratch file.
    const report = `${run.stdout}${run.stderr}`
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        for (const s of snippets) {
          const rel = path.relative(repoRoot, s.file);
          const at = line.indexOf(`${rel}(`);
          if (at < 0) continue;
          return (
            line.slice(0, at) +
            line
              .slice(at)
              .replace(
                /^[^(]+\((\d+),(\d+)\)/,
                (_m, l: string, c: string) => `${s.guide}:${s.fenceLine + Number(l)}:${c}`,
              )
          );
        }
        return line;
      });
    expect(report).toEqual([]);
    expect(run.status).toBe(0);
  }, 120_000);
});
