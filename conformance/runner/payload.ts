// What the CLI process hands the vitest worker (through vitest's `provide`/`inject`).

import type { ConformanceConfig } from '../config/config.ts';
import type { CheckInfo } from '../engine/plan/select.ts';

export const PAYLOAD_KEY = 'contentConformance';
export const CLEANUP_TEST_NAME = '(cleanup: soft-delete what the run wrote)';

export interface WorkerPayload {
  config: ConformanceConfig;
  /** The checks to run, in run order. */
  plan: CheckInfo[];
  checksDir: string;
  needsReceiver: boolean;
  receiverTls?: { key: string; cert: string };
  /** Present when a planned check runs the feed: the partner endpoint's certificate and key. */
  feedPartnerTls?: { key: string; cert: string };
}

/** The key under which a test's meta carries its result. */
export const META_KEY = 'conformance';
