import { readFileSync } from 'node:fs';

export interface LatencySummary {
  n: number;
  p50: number;
  p99: number;
  mean: number;
  min: number;
  max: number;
}

/** Nearest-rank percentile (p in 0..100) of sorted samples. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** The nearest-rank p50 of rounds' figures: for an even count the lower middle, a value that was measured. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median: no values');
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

export function summarise(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: sorted.length === 0 ? Number.NaN : sum / sorted.length,
    min: sorted[0] ?? Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
  };
}

/** CPU time (user + system) of a process in ms, from /proc (Linux); undefined elsewhere. */
export function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): utime is field 14, stime field 15.
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

/** Busy and total CPU time of the whole machine (all cores), in ms, from /proc/stat. */
export function systemCpuMs(): { busy: number; total: number } | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const values = line.trim().split(/\s+/).slice(1).map(Number);
    const total = values.slice(0, 8).reduce((a, b) => a + b, 0);
    const idle = (values[3] ?? 0) + (values[4] ?? 0);
    return { busy: ((total - idle) * 1000) / 100, total: (total * 1000) / 100 };
  } catch {
    return undefined;
  }
}

/** CPU use over a phase: each process's share of one core, and the machine's busy share. */
export class CpuMeter {
  private readonly pids: ReadonlyMap<string, number>;
  private readonly startProcess = new Map<string, number | undefined>();
  private readonly startSystem: { busy: number; total: number } | undefined;
  private readonly startSelf = process.cpuUsage();
  private readonly started = performance.now();

  constructor(pids: Record<string, number | undefined>) {
    this.pids = new Map(Object.entries(pids).filter((entry): entry is [string, number] => entry[1] !== undefined));
    for (const [name, pid] of this.pids) this.startProcess.set(name, processCpuMs(pid));
    this.startSystem = systemCpuMs();
  }

  /** Percent of one core per process (`loadGenerator` is this process), and the machine's busy percent of all cores. */
  stop(): Record<string, number> {
    const wall = performance.now() - this.started;
    const out: Record<string, number> = {};
    const self = process.cpuUsage(this.startSelf);
    out.loadGenerator = round(((self.user + self.system) / 1000 / wall) * 100);
    for (const [name, pid] of this.pids) {
      const before = this.startProcess.get(name),
        after = processCpuMs(pid);
      if (before !== undefined && after !== undefined) out[name] = round(((after - before) / wall) * 100);
    }
    const system = systemCpuMs();
    if (system !== undefined && this.startSystem !== undefined && system.total > this.startSystem.total) {
      out.machineBusy = round(((system.busy - this.startSystem.busy) / (system.total - this.startSystem.total)) * 100);
    }
    return out;
  }
}

const round = (n: number): number => Math.round(n);
