// Where the time of a CPU profile goes, as text: the functions with the most self time and the
// most inclusive time (each function counted once per stack), as a share of the sampled time.
//
//   node scripts/bench/profileSummary.ts reports/bench/profiles/postgres-page2000-http.cpuprofile [top]
//
// Built-ins such as JSON.stringify have no frame of their own: their time is the caller's self time.

import { readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileLine {
  name: string;
  ms: number;
  share: number;
}

export interface ProfileSummary {
  totalMs: number;
  self: ProfileLine[];
  inclusive: ProfileLine[];
}

function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  if (url === '') return functionName || '(anonymous)';
  const file = url.replace(/^file:\/\//, '');
  const short = file.includes('/node_modules/')
    ? file.slice(file.lastIndexOf('/node_modules/') + 14)
    : path.relative(process.cwd(), file);
  return `${functionName || '(anonymous)'} ${short}:${lineNumber + 1}`;
}

export function summariseProfile(profile: CpuProfile, top = 25): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const timeOf = new Map<number, number>();
  profile.samples.forEach((id, i) => timeOf.set(id, (timeOf.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...timeOf.values()].reduce((a, b) => a + b, 0);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, time] of timeOf) {
    const leaf = byId.get(id)!;
    self.set(frameName(leaf), (self.get(frameName(leaf)) ?? 0) + time);
    const seen = new Set<string>();
    for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
      const name = frameName(byId.get(current)!);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + time);
    }
  }
  const lines = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, time]) => ({ name, ms: time / 1000, share: total === 0 ? 0 : time / total }));
  return { totalMs: total / 1000, self: lines(self), inclusive: lines(inclusive) };
}

export function formatProfileSummary(summary: ProfileSummary): string {
  const line = (l: ProfileLine) =>
    `${(l.share * 100).toFixed(1).padStart(5)}%  ${l.ms.toFixed(0).padStart(7)} ms  ${l.name}`;
  return [
    `sampled ${summary.totalMs.toFixed(0)} ms`,
    '-- self time',
    ...summary.self.map(line),
    '-- inclusive time',
    ...summary.inclusive.map(line),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2];
  if (file === undefined) {
    console.error('usage: node scripts/bench/profileSummary.ts <file.cpuprofile> [top]');
    process.exitCode = 1;
  } else {
    console.log(
      formatProfileSummary(
        summariseProfile(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, Number(process.argv[3] ?? 25)),
      ),
    );
  }
}
