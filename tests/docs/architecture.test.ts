// ARCHITECTURE.md stays one page of structure; mechanism write-ups live in docs/design/.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const text = fs.readFileSync(path.join(repoRoot, 'ARCHITECTURE.md'), 'utf8');

describe('ARCHITECTURE.md', () => {
  it('when read, then it is one page: at most 60 lines', () => {
    expect(text.trimEnd().split('\n').length).toBeLessThanOrEqual(60);
  });

  it('when it links to a file or folder, then that exists', () => {
    const targets = [...text.matchAll(/\]\(([^)#\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/.test(t));
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.filter((t) => !fs.existsSync(path.join(repoRoot, t)))).toEqual([]);
  });
});
