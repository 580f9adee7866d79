// The runner speaks only in events; reporters listen. Checks never format output.

import type { PlanEntry, CheckInfo } from './plan/select.ts';
import type { CheckResult, RunInfo, RunResult } from './results/result.ts';
import type { CleanupOutcome } from '../model/outcome.ts';

export interface ReportFile {
  kind: 'junit' | 'json' | 'html';
  path: string;
}

export type RunEvent =
  | { type: 'run-start'; info: RunInfo; plan: readonly PlanEntry[] }
  | { type: 'check-start'; check: CheckInfo }
  /** A check finished, or a planned skip was reached in run order (result.status 'skipped'). */
  | { type: 'check-end'; result: CheckResult }
  | { type: 'cleanup-end'; outcome: CleanupOutcome }
  | { type: 'run-end'; result: RunResult; files: readonly ReportFile[] };

export interface Reporter {
  onEvent(event: RunEvent): void | Promise<void>;
}

export interface FileReporter {
  kind: ReportFile['kind'];
  fileName: string;
  render(result: RunResult): string;
}
