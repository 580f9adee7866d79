// Every guide in docs/guides/: relative links point at files that exist (and at headings that
// exist, when they name one), and every requirement or decision id they cite is in the catalogue.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { headingAnchors, links, loadGuides, prose, repoRoot } from './markdown.ts';

const guides = loadGuides();

const EXPECTED_GUIDES = [
  'changelog.md',
  'incremental-sync.md',
  'rate-limits.md',
  'receiving-webhooks.md',
  'size-cap-2026-11-01.md',
  'typed-client.md',
  'verifying-webhooks.md',
];

/** Ids such as SYNC-001, DEC-HOOK-005; three digits exactly, so ISO-8601 or SHA2-256 never match. */
const ID = /\b(?:DEC-)?[A-Z]+-\d{3}\b(?!\d)/g;

function catalogueIds(): Set<string> {
  const doc = YAML.parse(fs.readFileSync(path.join(repoRoot, 'spec/requirements.yaml'), 'utf8')) as {
    requirements: Array<{ id: string }>;
  };
  return new Set(doc.requirements.map((r) => r.id));
}

describe('docs/guides/', () => {
  it('when the folder is listed, then every planned guide is there', () => {
    expect(guides.map((g) => g.name)).toEqual(expect.arrayContaining(EXPECTED_GUIDES));
  });

  it('when each guide is read, then it starts with one level-1 heading', () => {
    for (const guide of guides) {
      expect(guide.lines[0], guide.name).toMatch(/^# \S/);
      expect(
        prose(guide)
          .split('\n')
          .filter((l) => /^# /.test(l)),
        guide.name,
      ).toHaveLength(1);
    }
  });
});

describe('docs/guides/: links', () => {
  for (const guide of guides) {
    it(`when the relative links of ${guide.name} are followed, then each file and heading exists`, () => {
      const broken: string[] = [];
      for (const link of links(guide)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) continue; // https:, mailto:
        const [file = '', anchor] = link.target.split('#');
        const target = file === '' ? guide.file : path.resolve(path.dirname(guide.file), decodeURIComponent(file));
        if (!path.relative(repoRoot, target) || path.relative(repoRoot, target).startsWith('..')) {
          broken.push(`${guide.name}:${link.line} ${link.target}: points outside the repository`);
          continue;
        }
        if (!fs.existsSync(target)) {
          broken.push(`${guide.name}:${link.line} ${link.target}: no such file`);
          continue;
        }
        if (
          anchor !== undefined &&
          target.endsWith('.md') &&
          !headingAnchors(fs.readFileSync(target, 'utf8')).has(anchor)
        ) {
          broken.push(`${guide.name}:${link.line} ${link.target}: no heading #${anchor}`);
        }
      }
      expect(broken).toEqual([]);
    });
  }
});

describe('docs/guides/: requirement and decision ids', () => {
  const known = catalogueIds();

  it('when the guides are read, then they cite ids (the check below is not vacuous)', () => {
    const cited = new Set(guides.flatMap((g) => prose(g).match(ID) ?? []));
    expect(cited.size).toBeGreaterThan(40);
  });

  for (const guide of guides) {
    it(`when ${guide.name} cites an id, then spec/requirements.yaml has it`, () => {
      // Prose and code alike: an id in a code comment must exist too.
      const unknown = [...new Set(guide.text.match(ID) ?? [])].filter((id) => !known.has(id));
      expect(unknown).toEqual([]);
    });
  }
});
