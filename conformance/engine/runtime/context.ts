// The `ctx` a check receives: HTTP with recording and spec validation, tokens, the run id for
// tagging test data, cleanup, the webhook receiver, seeds and the spec. One per check run.

import type { ConformanceConfig, Tokens } from '../../config/config.ts';
import type { Exchange, SpecProblem } from '../../model/exchange.ts';
import type { HttpClient, TokenChoice } from '../../http/httpClient.ts';
import type { Redactor } from '../../http/redact.ts';
import type { Level } from '../../model/levels.ts';
import { CheckSkipped } from '../../model/failure.ts';
import type { FeedPartner } from '../../partner/feedPartner.ts';
import type { Receiver } from '../../receiver/receiver.ts';
import type { UnverifiedNote } from '../../model/outcome.ts';
import type { LoadedSpec } from '../../../spec/index.ts';
import type { RequirementCatalogue } from '../../spec/requirements.ts';
import type { ResponseValidator } from '../../spec/responseValidator.ts';
import type { CleanupRegistry } from './cleanup.ts';
import type { SecretSighting, SecretWatch } from './secretWatch.ts';
import { deriveSeed } from '../../model/runId.ts';

// Fills the model's slot: a check's `run(ctx)` gets this CheckContext (see model/check.ts).
declare module '../../model/check.ts' {
  interface CheckContextSlot {
    context: CheckContext;
  }
}

/** The configuration a check may read: no tokens (those are in ctx.tokens, and redacted). */
export type ContextConfig = Readonly<Omit<ConformanceConfig, 'tokens' | 'expectedFailures'>>;

export interface CheckCleanup {
  /**
   * Run `action` at the end of the run (newest first). It gets the cleanup's own HTTP client:
   * the check's client is closed by then (e.g. to PUT back an ontology the check replaced).
   */
  add(description: string, action: (http: HttpClient) => Promise<void>): void;
  /** Soft-delete an item the check created (`DELETE /events/{id}`, DEC-ITEM-003) at the end of the run. */
  softDelete(detailPath: string, token?: TokenChoice): void;
}

export interface CheckContext {
  readonly config: ContextConfig;
  readonly tokens: Readonly<Tokens>;
  readonly http: HttpClient;
  /** `ctf-<6 chars>`: put it into every item the check writes (trcid, slug, title). */
  readonly runId: string;
  /** A unique value tagged with the run id: `ctf-k3x9q2-<label>-<n>`. */
  tag(label?: string): string;
  readonly cleanup: CheckCleanup;
  /** The suite's webhook receiver (checks that declare needs: ['webhook']). */
  readonly receiver: Receiver;
  /** The suite's partner endpoint that the feed --feed-id fetches (checks that declare needs: ['feed']). */
  readonly feedPartner: FeedPartner;
  /** The run seed and this check's fast-check settings (seed derived from the run seed and check id). */
  readonly seed: number;
  readonly fc: { readonly seed: number; readonly numRuns: number };
  readonly spec: {
    readonly document: LoadedSpec['document'];
    readonly sha256: string;
    readonly validator: ResponseValidator;
  };
  readonly requirements: RequirementCatalogue;
  readonly check: { readonly id: string; readonly requirements: readonly string[]; readonly level: Level };
  /** This check's exchanges so far (redacted). */
  readonly exchanges: readonly Exchange[];
  /** Stop: the check does not apply to this target. Reported as skipped (a failure for a MUST under certification). */
  skip(reason: string): never;
  /** Record that some of the check's requirements could not be verified in this run, and why. */
  unverified(requirements: readonly string[], reason: string): void;
  /**
   * Record that some requirements cannot be observed on this target any more (e.g. a rule that
   * held only before a date the target's clock is past): reported as not verifiable black-box,
   * not as "not verified", so a certification is not left incomplete by it.
   */
  unobservable(requirements: readonly string[], reason: string): void;
  /**
   * Declare requirements fully verified so far. Matters only when the check then fails on
   * another requirement: without it, the check's other requirements count as not verified.
   */
  verified(requirements: readonly string[]): void;
  /**
   * Record that the target differs from our decisions only, not from the interface (e.g. a field
   * the interface does not name, read back in another shape): reported under decisions, never a
   * MUST failure. Responses are judged so by the validator already; this is for what a check compares.
   */
  deviation(decisions: readonly string[], problem: SpecProblem, exchange: Exchange): void;
  /** A line for the report (e.g. which branch of a date-dependent rule applied). */
  note(text: string): void;
  /** Hide a secret the check learned (e.g. a signingSecret) from every report. */
  secret(value: string, label?: string): void;
  /**
   * A secret the target must never show again (TOKEN-002): hidden like `secret`, and every later
   * response of the run, in any check, is scanned for it (see secretSightings).
   */
  watchSecret(value: string, label: string): void;
  /** Responses of this run so far that showed a watched secret again. */
  secretSightings(): readonly SecretSighting[];
  sleep(ms: number): Promise<void>;
}

export interface ContextParts {
  config: ContextConfig;
  tokens: Tokens;
  http: HttpClient;
  cleanup: CleanupRegistry;
  /** Client the cleanup steps use (it outlives the check's own client). */
  cleanupHttp: () => HttpClient;
  receiver: () => Receiver;
  /** Absent in contexts built without one (then a check that uses it fails saying so). */
  feedPartner?: () => FeedPartner;
  spec: LoadedSpec;
  validator: ResponseValidator;
  requirements: RequirementCatalogue;
  redactor: Redactor;
  check: { id: string; requirements: readonly string[]; level: Level };
  exchanges: readonly Exchange[];
  unverified: UnverifiedNote[];
  verified: string[];
  notes: string[];
  nextTag: () => number;
  /** Run-wide; absent in contexts built without one (watchSecret then only redacts). */
  secretWatch?: SecretWatch;
  /** Where a check's own deviations go (the runtime's record of the check's deviations). */
  onDeviation: (decisions: readonly string[], problem: SpecProblem, exchange: Exchange) => void;
}

export function createCheckContext(parts: ContextParts): CheckContext {
  const { config, check } = parts;
  return {
    config,
    tokens: Object.freeze({ ...parts.tokens }),
    http: parts.http,
    runId: config.runId,
    tag: (label = 'item') => `${config.runId}-${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${parts.nextTag()}`,
    cleanup: {
      add: (description, action) => parts.cleanup.add(`${check.id}: ${description}`, () => action(parts.cleanupHttp())),
      softDelete(detailPath, token) {
        parts.cleanup.add(`${check.id}: soft-delete ${detailPath}`, async () => {
          const res = await parts.cleanupHttp().delete(detailPath, { token, validate: false });
          if (res.status >= 300 && res.status !== 404) throw new Error(`DELETE ${detailPath} answered ${res.status}`);
        });
      },
    },
    get receiver() {
      return parts.receiver();
    },
    get feedPartner() {
      if (!parts.feedPartner) throw new Error(`${check.id} uses the feed partner endpoint; declare needs: ['feed']`);
      return parts.feedPartner();
    },
    seed: config.seed,
    fc: Object.freeze({ seed: deriveSeed(config.seed, check.id), numRuns: config.numRuns }),
    spec: Object.freeze({ document: parts.spec.document, sha256: parts.spec.sha256, validator: parts.validator }),
    requirements: parts.requirements,
    check: Object.freeze({ ...check }),
    get exchanges() {
      return parts.exchanges;
    },
    skip(reason) {
      throw new CheckSkipped(reason);
    },
    unverified(requirements, reason) {
      parts.unverified.push({ requirements: [...requirements], reason });
    },
    unobservable(requirements, reason) {
      parts.unverified.push({ requirements: [...requirements], reason, unobservable: true });
    },
    verified(requirements) {
      for (const r of requirements) if (!parts.verified.includes(r)) parts.verified.push(r);
    },
    deviation: (decisions, problem, exchange) => parts.onDeviation(decisions, problem, exchange),
    note(text) {
      parts.notes.push(parts.redactor.text(text));
    },
    secret(value, label = '<redacted secret>') {
      parts.redactor.addSecret(value, label);
    },
    watchSecret(value, label) {
      parts.redactor.addSecret(value, `<${label}>`);
      parts.secretWatch?.watch(value, label);
    },
    secretSightings: () => parts.secretWatch?.sightings ?? [],
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}
