// The JSON result: the RunResult itself plus its integrity hash (see results/integrity.ts).

import { withIntegrity } from './integrity.ts';
import type { RunResult } from '../engine/results/result.ts';
import type { FileReporter } from '../engine/events.ts';

export function renderJson(result: RunResult): string {
  return `${JSON.stringify(withIntegrity(result), null, 2)}\n`;
}

export const jsonReporter: FileReporter = { kind: 'json', fileName: 'result.json', render: renderJson };
