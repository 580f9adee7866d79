// What a discovery probe works with: an HTTP client without spec validation (discovery finds
// out what the target does; judging it is the checks' job), the run's tokens and tag source,
// and a list of clean-up steps for what the probe wrote.

import type { ConformanceConfig } from '../../config/config.ts';
import type { HttpClient, TokenChoice } from '../../http/httpClient.ts';
import type { TargetVariants, VariantName } from '../../model/variants.ts';
import { isObject } from '../../../spec/json.ts';

export interface ProbeContext {
  http: HttpClient;
  config: ConformanceConfig;
  /** A unique value tagged with the run id (`ctf-k3x9q2-probe-<label>-<n>`). */
  tag(label: string): string;
  /** The token the suite writes with (see support/items.ts writerToken). */
  writer: TokenChoice;
  /** Runs after discovery, newest first: soft-delete probe items, delete probe tokens. */
  cleanup(description: string, action: () => Promise<void>): void;
}

/** What a probe found: the variants it could decide, and a line per variant on what it saw. */
export interface ProbeFinding {
  found: Partial<TargetVariants>;
  notes: Partial<Record<VariantName, string>>;
}

export function finding(): ProbeFinding {
  return { found: {}, notes: {} };
}

export const is2xx = (status: number) => status >= 200 && status < 300;
