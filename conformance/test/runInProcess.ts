// Runs the planned checks in this process (no CLI, no vitest of its own) and builds the result:
// the fast path for testing many target variants. The CLI tests cover the vitest wiring.

import { fileURLToPath } from 'node:url';
import { resolveConfig } from '../config/config.ts';
import { discoverVariants } from '../engine/discovery/discover.ts';
import { describeVariants } from '../model/variants.ts';
import { CHECKS_DIR, loadChecks } from '../engine/plan/loadChecks.ts';
import { planChecks } from '../engine/plan/select.ts';
import type { CheckOutcome } from '../model/outcome.ts';
import { buildResult } from '../engine/results/result.ts';
import type { RunResult } from '../engine/results/result.ts';
import { loadPartnerTls } from '../partner/partnerTls.ts';
import { createRuntime } from '../engine/runtime/runtime.ts';
import { loadRequirements } from '../spec/requirements.ts';

export async function runInProcess(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  const command = await resolveConfig(args, env, process.cwd());
  if (command.kind !== 'run') throw new Error('not a run');
  // Discovery first, as in a CLI run: the checks work with the target's variants.
  const variants = await discoverVariants(command.config);
  const config = { ...command.config, variants };
  const catalogue = await loadRequirements(config.requirementsFile);
  const checks = await loadChecks(fileURLToPath(CHECKS_DIR), catalogue);
  const plan = planChecks(checks, catalogue, config);
  const byId = new Map(checks.map((c) => [c.id, c]));
  const runsFeed = config.feedPartner !== undefined && plan.some((e) => e.run && e.check.needs.includes('feed'));
  const feedPartnerTls = runsFeed ? await loadPartnerTls(config.feedPartner!, config.reportDir) : undefined;
  const runtime = await createRuntime({
    config,
    needsReceiver: plan.some((e) => e.run && e.check.needs.includes('webhook')),
    feedPartnerTls,
  });
  const outcomes = new Map<string, CheckOutcome>();
  const startedAt = new Date().toISOString();
  try {
    for (const entry of plan)
      if (entry.run) outcomes.set(entry.check.id, await runtime.runCheck(byId.get(entry.check.id)!, entry.check));
    const cleanup = await runtime.runCleanup();
    return buildResult({
      info: {
        suite: { name: 'content-conformance', version: 'test' },
        target: config.baseUrl!,
        profile: config.profile,
        seed: config.seed,
        runId: config.runId,
        spec: { file: 'openapi.json', sha256: runtime.spec.sha256 },
        startedAt,
        targetVariants: describeVariants(variants),
      },
      finishedAt: new Date(),
      plan,
      outcomes,
      catalogue,
      expectedFailures: config.expectedFailures,
      cleanup: cleanup.results,
      allowIncomplete: config.allowIncomplete,
    });
  } finally {
    await runtime.close();
  }
}
