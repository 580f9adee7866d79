// The vitest entry of a conformance run: one sequential `it()` per planned check (one target,
// one shared rate limit), then one for cleanup. Results travel back in the test's meta; the
// CLI's bridge reporter turns them into events. Not a unit test: the repo's `npm test` never
// picks it up (it is not named *.test.ts); conformance/vitest.conformance.config.ts does.

import { afterAll, beforeAll, inject, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { loadChecks } from '../engine/plan/loadChecks.ts';
import { createRuntime } from '../engine/runtime/runtime.ts';
import type { Runtime } from '../engine/runtime/runtime.ts';
import type { WorkerPayload } from './payload.ts';
import { CLEANUP_TEST_NAME, META_KEY, PAYLOAD_KEY } from './payload.ts';

const payload = inject(PAYLOAD_KEY as never) as WorkerPayload;
const checks = new Map(
  (await loadChecks(payload.checksDir.startsWith('file:') ? fileURLToPath(payload.checksDir) : payload.checksDir)).map(
    (c) => [c.id, c],
  ),
);
let runtime: Runtime;

beforeAll(async () => {
  runtime = await createRuntime({
    config: payload.config,
    needsReceiver: payload.needsReceiver,
    receiverTls: payload.receiverTls,
    feedPartnerTls: payload.feedPartnerTls,
  });
});

afterAll(async () => {
  await runtime?.close();
});

for (const info of payload.plan) {
  // The runtime enforces --check-timeout itself (and records why); vitest's is only a backstop.
  it(info.id, { timeout: payload.config.checkTimeoutMs + 15_000 }, async (test) => {
    const check = checks.get(info.id);
    if (!check) throw new Error(`check ${info.id} was planned but not found in the worker`);
    const outcome = await runtime.runCheck(check, info);
    (test.task.meta as Record<string, unknown>)[META_KEY] = outcome;
    if (outcome.status === 'skipped') test.skip(outcome.skipReason);
    if (outcome.status === 'failed') throw new Error(outcome.failure?.message ?? 'failed');
  });
}

it(CLEANUP_TEST_NAME, { timeout: 120_000 }, async (test) => {
  (test.task.meta as Record<string, unknown>)[META_KEY] = await runtime.runCleanup();
});
