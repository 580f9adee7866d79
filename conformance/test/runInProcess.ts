// A conformance run in this process through the same engine the CLI uses (engine/execute/runSuite.ts),
// without console or report files: the fast path for testing many target variants. Throws when
// the suite cannot run (the CLI's exit 2).

import { resolveConfig } from '../config/config.ts';
import { serialEmitter } from '../engine/execute/executePlan.ts';
import { runSuite } from '../engine/execute/runSuite.ts';
import type { RunResult } from '../engine/results/result.ts';

export async function runInProcess(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  const command = await resolveConfig(args, env, process.cwd());
  if (command.kind !== 'run') throw new Error('not a run');
  return runSuite({ ...command.config, reporters: [] }, { version: 'test', emit: serialEmitter([]) });
}
