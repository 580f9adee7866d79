// Everything a check writes is registered here and undone at the end of the run, newest
// first: items are soft-deleted (DEC-ITEM-003), tokens deleted. A failing cleanup step is
// reported as a warning; it never changes a check's verdict.

import type { CleanupResult } from '../../model/outcome.ts';

export interface CleanupStep {
  description: string;
  action: () => Promise<void>;
}

export type { CleanupResult } from '../../model/outcome.ts';

export interface CleanupRegistry {
  add(description: string, action: () => Promise<void>): void;
  readonly size: number;
  run(): Promise<CleanupResult[]>;
}

export function createCleanupRegistry(): CleanupRegistry {
  const steps: CleanupStep[] = [];
  return {
    add(description, action) {
      steps.push({ description, action });
    },
    get size() {
      return steps.length;
    },
    async run() {
      const results: CleanupResult[] = [];
      while (steps.length > 0) {
        const step = steps.pop()!;
        try {
          await step.action();
          results.push({ description: step.description, ok: true });
        } catch (error) {
          results.push({ description: step.description, ok: false, error: (error as Error).message });
        }
      }
      return results;
    },
  };
}
