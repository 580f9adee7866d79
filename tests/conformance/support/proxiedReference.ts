// The reference service behind the fault proxy, as the self-tests use it: API traffic and the
// service's webhook deliveries to the suite's receiver go through the proxy, the service's public
// base URL is the proxy's (so the links it hands out lead through it too), and its feed fetches
// the suite's partner endpoint. `run` starts the suite in this process against it, with every token.

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHECKS_DIR, loadChecks } from '../../../conformance/engine/plan/loadChecks.ts';
import type { RunResult } from '../../../conformance/engine/results/result.ts';
import { startFaultProxy } from '../../../conformance/selftest/faultProxy.ts';
import type { FaultModifier, FaultProxy } from '../../../conformance/selftest/faultProxy.ts';
import { loadRequirements } from '../../../conformance/spec/requirements.ts';
import { runInProcess } from '../../../conformance/test/runInProcess.ts';
import { freePort, wireFeed } from './feedPartner.ts';
import { REFERENCE_TIMING, ROOT, startReferenceService } from './referenceService.ts';
import type { ReferenceService } from './referenceService.ts';

export interface ProxiedReference {
  service: ReferenceService;
  proxy: FaultProxy;
  /** Runs the suite through the proxy with these modifiers; `applied`: what each modifier changed. */
  run(
    profile: 'full' | 'certification',
    modifiers: FaultModifier[],
    extraArgs: readonly string[],
  ): Promise<{ result: RunResult; applied: Map<string, number> }>;
  close(): Promise<void>;
}

export async function startProxiedReference(): Promise<ProxiedReference> {
  const servicePort = await freePort();
  const receiverPort = await freePort();
  const proxy = await startFaultProxy({
    target: `http://127.0.0.1:${servicePort}/api`,
    modifiers: [],
    webhookTarget: `http://127.0.0.1:${receiverPort}`,
  });
  const feedWiring = await wireFeed();
  const service = await startReferenceService({
    env: { PORT: String(servicePort), PUBLIC_BASE_URL: proxy.url, FEEDS_FILE: feedWiring.feedsFile },
  });
  return {
    service,
    proxy,
    async run(profile, modifiers, extraArgs) {
      proxy.setModifiers(modifiers);
      try {
        const result = await runInProcess(
          [
            '--base-url',
            proxy.url,
            '--profile',
            profile,
            '--account-id',
            service.accountId,
            ...feedWiring.args,
            '--receiver-port',
            String(receiverPort),
            '--callback-url',
            proxy.webhookUrl!,
            ...extraArgs,
            '--seed',
            '7',
            '--num-runs',
            '10',
            ...REFERENCE_TIMING,
          ],
          {
            CONFORMANCE_TOKEN: service.tokens.consumer,
            CONFORMANCE_FULL_TOKEN: service.tokens.full,
            CONFORMANCE_ADMIN_TOKEN: service.tokens.admin,
            CONFORMANCE_SESSION_USER: service.user.username,
            CONFORMANCE_SESSION_PASSWORD: service.user.password,
          },
        );
        return { result, applied: new Map(proxy.applied) };
      } finally {
        proxy.setModifiers([]);
      }
    },
    async close() {
      await proxy.close();
      await service.stop();
      await feedWiring.remove();
    },
  };
}

/** The suite's check ids, and the proxied reference started: what a run of faults or variations needs first. */
export async function startProxiedReferenceWithChecks(): Promise<{ target: ProxiedReference; checkIds: Set<string> }> {
  const catalogue = await loadRequirements(join(ROOT, 'spec/requirements.yaml'));
  const checkIds = new Set((await loadChecks(fileURLToPath(CHECKS_DIR), catalogue)).map((c) => c.id));
  return { target: await startProxiedReference(), checkIds };
}
