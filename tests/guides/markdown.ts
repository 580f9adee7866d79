// Readers for the guides in docs/guides/: files, fenced code blocks, marked blocks and tables,
// links and heading anchors. Deliberately small: the guides are plain CommonMark with GitHub
// heading slugs, and these tests only need what the guides use.
import fs from 'node:fs';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const guidesDir = path.join(repoRoot, 'docs/guides');

export interface Guide {
  /** File name, e.g. `verifying-webhooks.md`. */
  name: string;
  file: string;
  text: string;
  lines: string[];
}

export function loadGuides(): Guide[] {
  return fs
    .readdirSync(guidesDir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => loadGuide(name));
}

export function loadGuide(name: string): Guide {
  const file = path.join(guidesDir, name);
  const text = fs.readFileSync(file, 'utf8');
  return { name, file, text, lines: text.split('\n') };
}

export interface CodeBlock {
  /** First word of the info string (`ts`, `sh`, `python`…), '' when absent. */
  lang: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
}

const FENCE = /^(`{3,}|~{3,})\s*([^\s`]*)/;

export function codeBlocks(guide: Guide): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < guide.lines.length; i++) {
    const open = FENCE.exec(guide.lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const body: string[] = [];
    let j = i + 1;
    for (; j < guide.lines.length && !guide.lines[j]!.startsWith(fence); j++) body.push(guide.lines[j]!);
    if (j >= guide.lines.length) throw new Error(`${guide.name}:${i + 1}: code fence never closed`);
    blocks.push({ lang: open[2]!.toLowerCase(), code: body.join('\n'), line: i + 1 });
    i = j;
  }
  return blocks;
}

/**
 * The block right after the marker comment `<!-- <marker> … -->`: a fenced code block (its
 * content) or a Markdown table (its lines). Throws when the marker is missing or repeated.
 */
export function markedBlock(
  guide: Guide,
  marker: string,
): { kind: 'code' | 'table'; lang: string; content: string; line: number } {
  const at = guide.lines.flatMap((l, i) => (l.trimStart().startsWith(`<!-- ${marker}`) ? [i] : []));
  if (at.length !== 1)
    throw new Error(`${guide.name}: expected exactly one <!-- ${marker} --> marker, found ${at.length}`);
  let i = at[0]! + 1;
  while (i < guide.lines.length && guide.lines[i]!.trim() === '') i++;
  const first = guide.lines[i] ?? '';
  const open = FENCE.exec(first);
  if (open) {
    const block = codeBlocks({ ...guide, lines: guide.lines.slice(i) })[0]!;
    return { kind: 'code', lang: block.lang, content: block.code, line: i + 1 };
  }
  if (first.startsWith('|')) {
    const rows: string[] = [];
    for (; i < guide.lines.length && guide.lines[i]!.startsWith('|'); i++) rows.push(guide.lines[i]!);
    return { kind: 'table', lang: '', content: rows.join('\n'), line: at[0]! + 2 };
  }
  throw new Error(`${guide.name}:${i + 1}: <!-- ${marker} --> must be followed by a code block or a table`);
}

/** The text between `<!-- <name>:start … -->` and `<!-- <name>:end -->`. */
export function between(guide: Guide, name: string): string {
  const start = guide.lines.findIndex((l) => l.startsWith(`<!-- ${name}:start`));
  const end = guide.lines.findIndex((l) => l.startsWith(`<!-- ${name}:end`));
  if (start < 0 || end < start) throw new Error(`${guide.name}: missing <!-- ${name}:start --> … <!-- ${name}:end -->`);
  return guide.lines.slice(start + 1, end).join('\n');
}

/** Table rows as trimmed cells, without the header and the delimiter row. */
export function tableRows(table: string): string[][] {
  const rows = table.split('\n').map((row) =>
    row
      .trim()
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split('|')
      .map((cell) => cell.trim()),
  );
  return rows.slice(2);
}

/** The guide's prose: fenced blocks and inline code spans blanked, so links and ids in code are not counted. */
export function prose(guide: Guide): string {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of guide.lines) {
    const open = FENCE.exec(line);
    if (fence === undefined && open) {
      fence = open[1]!;
      out.push('');
      continue;
    }
    if (fence !== undefined) {
      if (line.startsWith(fence)) fence = undefined;
      out.push('');
      continue;
    }
    out.push(line.replace(/`[^`]*`/g, '``'));
  }
  return out.join('\n');
}

export interface Link {
  text: string;
  target: string;
  line: number;
}

/** Inline Markdown links `[text](target)` outside code. */
export function links(guide: Guide): Link[] {
  const found: Link[] = [];
  prose(guide)
    .split('\n')
    .forEach((line, i) => {
      for (const m of line.matchAll(/\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g))
        found.push({ text: m[1]!, target: m[2]!, line: i + 1 });
    });
  return found;
}

/** GitHub's heading anchors of a Markdown file (lower case, punctuation dropped, spaces to hyphens, -1, -2 for repeats). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const open = FENCE.exec(line);
    if (fence === undefined && open) {
      fence = open[1]!;
      continue;
    }
    if (fence !== undefined) {
      if (line.startsWith(fence)) fence = undefined;
      continue;
    }
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = counts.get(slug) ?? 0;
    counts.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}
