// A vitest reporter living in the CLI process: it reads each finished test's meta (the
// CheckOutcome the worker attached) and hands it on as runner events.

import type { CheckOutcome, CleanupOutcome } from '../model/outcome.ts';
import { CLEANUP_TEST_NAME, META_KEY } from './payload.ts';

export interface BridgeHandlers {
  onStart(checkId: string): void;
  onOutcome(outcome: CheckOutcome): void;
  onCleanup(outcome: CleanupOutcome): void;
}

interface TestCaseLike {
  name: string;
  meta(): Record<string, unknown>;
  result(): { state: string; errors?: ReadonlyArray<{ message?: string }> };
}

interface TestModuleLike {
  errors(): ReadonlyArray<{ message?: string; stack?: string }>;
}

export class BridgeReporter {
  readonly errors: string[] = [];
  readonly #handlers: BridgeHandlers;

  constructor(handlers: BridgeHandlers) {
    this.#handlers = handlers;
  }

  onTestCaseReady(test: TestCaseLike): void {
    if (test.name !== CLEANUP_TEST_NAME) this.#handlers.onStart(test.name);
  }

  onTestCaseResult(test: TestCaseLike): void {
    const payload = test.meta()[META_KEY];
    if (test.name === CLEANUP_TEST_NAME) {
      if (payload) this.#handlers.onCleanup(payload as CleanupOutcome);
      else this.errors.push(`cleanup did not complete: ${test.result().errors?.[0]?.message ?? 'unknown error'}`);
      return;
    }
    if (payload) this.#handlers.onOutcome(payload as CheckOutcome);
    else this.errors.push(`${test.name}: ${test.result().errors?.[0]?.message ?? 'no result'}`);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModuleLike>, unhandled: ReadonlyArray<{ message?: string }>): void {
    for (const m of modules) for (const e of m.errors()) this.errors.push(e.message ?? String(e));
    for (const e of unhandled) this.errors.push(`unhandled error: ${e.message ?? String(e)}`);
  }
}
