import type { Logger } from './logger.ts';

/** Where parts of the service register what must happen at shutdown. */
export interface Lifecycle {
  /** Steps run in reverse order of registration, after HTTP stopped and before storage closes. */
  onStop(name: string, stop: () => Promise<void> | void): void;
}

export interface RunnableLifecycle extends Lifecycle {
  stopAll(): Promise<void>;
}

/** A failing step is logged and the others still run. */
export function createLifecycle(logger: Logger): RunnableLifecycle {
  const steps: Array<{ name: string; stop: () => Promise<void> | void }> = [];
  return {
    onStop(name, stop) {
      steps.push({ name, stop });
    },
    async stopAll() {
      for (const step of steps.splice(0).reverse()) {
        try {
          await step.stop();
        } catch (error) {
          logger.error({ err: error, step: step.name }, 'shutdown step failed');
        }
      }
    },
  };
}
