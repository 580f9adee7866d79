// Runs checks for the engine (engine/execute/): builds each check's ctx, times it out, turns whatever
// it throws into a CheckOutcome, and runs the cleanup at the end. Knows nothing of reports.

import type { ConformanceConfig } from '../../config/config.ts';
import type { Exchange } from '../../model/exchange.ts';
import { createHttpClient } from '../../http/httpClient.ts';
import type { HttpClient } from '../../http/httpClient.ts';
import { createRedactor } from '../../http/redact.ts';
import type { Redactor } from '../../http/redact.ts';
import type { Check } from '../../model/check.ts';
import { CheckFailure, CheckSkipped, CheckUnobservable, isCheckFailure } from '../../model/failure.ts';
import type { CheckInfo } from '../plan/select.ts';
import { startReceiver } from '../../receiver/receiver.ts';
import type { Receiver } from '../../receiver/receiver.ts';
import { startFeedPartner } from '../../partner/feedPartner.ts';
import type { FeedPartner } from '../../partner/feedPartner.ts';
import type {
  CheckOutcome,
  CleanupOutcome,
  DeviationRecord,
  FailureRecord,
  UnverifiedNote,
} from '../../model/outcome.ts';
import { formatValue } from '../../model/outcome.ts';
import { createLayeredValidator, interfaceFileFor } from '../../spec/contractLayers.ts';
import { loadSpec, type LoadedSpec } from '../../../spec/index.ts';
import { loadRequirements } from '../../spec/requirements.ts';
import type { RequirementCatalogue } from '../../spec/requirements.ts';
import { createResponseValidator } from '../../spec/responseValidator.ts';
import type { DecisionDeviation, ResponseValidator } from '../../spec/responseValidator.ts';
import { createCleanupRegistry } from './cleanup.ts';
import { createCheckContext } from './context.ts';
import { createSecretWatch } from './secretWatch.ts';

export interface RuntimeOptions {
  config: ConformanceConfig;
  needsReceiver: boolean;
  receiverTls?: { key: string; cert: string };
  /** Starts the feed partner endpoint (config.feedPartner) with this certificate. */
  feedPartnerTls?: { key: string; cert: string };
}

export interface Runtime {
  readonly spec: LoadedSpec;
  readonly receiver: Receiver | undefined;
  readonly feedPartner: FeedPartner | undefined;
  runCheck(check: Check, info: CheckInfo): Promise<CheckOutcome>;
  runCleanup(): Promise<CleanupOutcome>;
  close(): Promise<void>;
}

const EVIDENCE_HEAD = 2;
const EVIDENCE_TAIL = 3;

function sample(all: readonly Exchange[], failure: readonly Exchange[]): Exchange[] {
  const picked = new Map<number, Exchange>();
  for (const e of [...failure, ...all.slice(0, EVIDENCE_HEAD), ...all.slice(-EVIDENCE_TAIL)]) picked.set(e.seq, e);
  return [...picked.values()].sort((a, b) => a.seq - b.seq);
}

export function toFailureRecord(
  error: unknown,
  info: CheckInfo,
  exchanges: readonly Exchange[],
  redactor: Redactor,
): FailureRecord {
  const last = exchanges.slice(-1);
  if (isCheckFailure(error)) {
    const f = error;
    const named = (f.requirements ?? []).filter((r) => info.requirements.includes(r));
    return {
      kind: f.kind,
      message: redactor.text(f.message),
      received: redactOpt(formatValue(f.received), redactor),
      expected: redactOpt(formatValue(f.expected), redactor),
      pointer: f.pointer,
      requirements: named.length > 0 ? named : [...info.requirements],
      exchanges: f.exchanges.length > 0 ? [...f.exchanges] : last,
    };
  }
  const err = error instanceof Error ? error : new Error(String(error));
  return {
    kind: 'error',
    message: redactor.text(`${err.name}: ${err.message}`),
    requirements: [...info.requirements],
    exchanges: last,
    stack: err.stack ? redactor.text(err.stack.split('\n').slice(0, 8).join('\n')) : undefined,
  };
}

/** Deviations kept per check: the first of each kind (decisions and message), at most this many. */
const MAX_DEVIATIONS = 20;

function recordDeviation(
  into: DeviationRecord[],
  deviation: DecisionDeviation,
  exchange: Exchange,
  redactor: Redactor,
): void {
  const first = deviation.problems[0]!;
  const path = new URL(exchange.request.url).pathname;
  const message = redactor.text(
    `${exchange.request.method} ${path} → ${exchange.response?.status} differs from our decision: ${first.message}`,
  );
  const decisions = deviation.decisions.join(',');
  const seen = into.some((d) => d.decisions.join(',') === decisions && d.message.endsWith(`: ${first.message}`));
  if (seen || into.length >= MAX_DEVIATIONS) return;
  into.push({
    decisions: deviation.decisions,
    message,
    received: redactOpt(formatValue(first.received), redactor),
    expected: redactOpt(formatValue(first.expected), redactor),
    exchanges: [exchange],
  });
}

function redactOpt(value: string | undefined, redactor: Redactor): string | undefined {
  return value === undefined ? undefined : redactor.text(value);
}

export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { config } = options;
  const spec = loadSpec(config.specFile);
  // The verdict is the interface layer's; without one beside the spec, the full spec decides.
  const layerFile = interfaceFileFor(config.specFile);
  const validator: ResponseValidator = layerFile
    ? createLayeredValidator(loadSpec(layerFile).document, spec.document)
    : createResponseValidator(spec.document);
  const requirements: RequirementCatalogue = await loadRequirements(config.requirementsFile);
  const redactor = createRedactor();
  redactor.addSecret(config.tokens.sessionPassword, '$CONFORMANCE_SESSION_PASSWORD');
  const secretWatch = createSecretWatch();
  const cleanup = createCleanupRegistry();
  const receiver = options.needsReceiver
    ? await startReceiver({
        host: config.receiver.host,
        port: config.receiver.port,
        publicUrl: config.callbackUrl,
        tls: options.receiverTls,
      })
    : undefined;
  // The partner endpoint listens on its fixed port for the whole run; a failure to start is the
  // feed checks' failure (the runner probed the port before), not the run's.
  let feedPartner: FeedPartner | undefined;
  let feedPartnerProblem: string | undefined;
  if (options.feedPartnerTls && config.feedPartner) {
    const { host, port, url } = config.feedPartner;
    try {
      feedPartner = await startFeedPartner({ host, port, url, tls: options.feedPartnerTls });
    } catch (error) {
      feedPartnerProblem = `the feed partner endpoint cannot listen on ${host}:${port}: ${(error as Error).message}`;
    }
  }
  const cleanupExchanges: Exchange[] = [];
  let cleanupHttp: HttpClient | undefined;
  let tagCounter = 0;
  const { tokens: _tokens, expectedFailures: _expected, ...publicConfig } = config;

  const makeHttp = (
    record: (e: Exchange) => void,
    validate: boolean,
    checkId?: string,
    onDeviation?: (deviation: DecisionDeviation, exchange: Exchange) => void,
  ) =>
    createHttpClient({
      onDeviation,
      baseUrl: config.baseUrl!,
      tokens: config.tokens,
      redactor,
      record,
      validator: validate ? validator : undefined,
      timeoutMs: config.timeoutMs,
      retryAfterCapMs: config.retryAfterCapMs,
      onResponse: checkId === undefined ? undefined : (res) => secretWatch.scan(checkId, res),
    });

  async function runCheck(check: Check, info: CheckInfo): Promise<CheckOutcome> {
    const exchanges: Exchange[] = [];
    const unverified: UnverifiedNote[] = [];
    const notes: string[] = [];
    const verified: string[] = [];
    const deviations: DeviationRecord[] = [];
    const onDeviation = (deviation: DecisionDeviation, exchange: Exchange) =>
      recordDeviation(deviations, deviation, exchange, redactor);
    const http = makeHttp((e) => exchanges.push(e), true, info.id, onDeviation);
    const ctx = createCheckContext({
      config: publicConfig,
      tokens: config.tokens,
      http,
      cleanup,
      cleanupHttp: () => (cleanupHttp ??= makeHttp((e) => cleanupExchanges.push(e), false)),
      receiver: () => {
        if (!receiver) throw new Error(`${check.id} uses the webhook receiver; declare needs: ['webhook']`);
        return receiver;
      },
      feedPartner: () => {
        if (!feedPartner)
          throw new Error(feedPartnerProblem ?? `${check.id} uses the feed partner endpoint; declare needs: ['feed']`);
        return feedPartner;
      },
      spec,
      validator,
      requirements,
      redactor,
      check: { id: info.id, requirements: info.requirements, level: info.level },
      exchanges,
      unverified,
      verified,
      notes,
      nextTag: () => ++tagCounter,
      secretWatch,
      onDeviation: (decisions, problem, exchange) =>
        onDeviation({ decisions: [...decisions], problems: [problem] }, exchange),
    });
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const base = { checkId: info.id, unverified, verified, notes, deviations };
    try {
      await Promise.race([
        check.run(ctx),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`the check did not finish within ${config.checkTimeoutMs} ms (--check-timeout)`)),
            config.checkTimeoutMs,
          );
        }),
      ]);
      // A deferred spec problem the check never asserted still fails it: every response is checked.
      const unasserted = http.unacknowledged()[0];
      if (unasserted) {
        const first = unasserted.problems![0]!;
        throw new CheckFailure({
          kind: 'spec',
          message: `${unasserted.request.method} ${new URL(unasserted.request.url).pathname} → ${unasserted.response?.status} does not conform to the spec: ${first.message}`,
          received: first.received,
          expected: first.expected,
          pointer: first.pointer,
          exchanges: [unasserted],
        });
      }
      return {
        ...base,
        status: 'passed',
        durationMs: Date.now() - started,
        exchangeCount: exchanges.length,
        evidence: sample(exchanges, []),
      };
    } catch (error) {
      if (error instanceof CheckUnobservable) {
        unverified.push({
          requirements: [...info.requirements],
          reason: redactor.text(error.message),
          unobservable: true,
        });
        return {
          ...base,
          status: 'passed',
          durationMs: Date.now() - started,
          exchangeCount: exchanges.length,
          evidence: sample(exchanges, []),
        };
      }
      if (error instanceof CheckSkipped) {
        return {
          ...base,
          status: 'skipped',
          skipReason: redactor.text(error.message),
          durationMs: Date.now() - started,
          exchangeCount: exchanges.length,
          evidence: sample(exchanges, []),
        };
      }
      const failure = toFailureRecord(error, info, exchanges, redactor);
      return {
        ...base,
        status: 'failed',
        failure,
        durationMs: Date.now() - started,
        exchangeCount: exchanges.length,
        evidence: sample(exchanges, failure.exchanges),
      };
    } finally {
      clearTimeout(timer);
      // Between checks the partner serves nothing, so a scheduled poll of the feed imports nothing.
      if (info.needs.includes('feed')) feedPartner?.clear();
      // Closing the client aborts whatever a timed-out check still has in flight.
      await http.close().catch(() => {});
    }
  }

  return {
    spec,
    receiver,
    feedPartner,
    runCheck,
    async runCleanup() {
      const results = await cleanup.run();
      return { results, exchanges: cleanupExchanges.slice(-20) };
    },
    async close() {
      await cleanupHttp?.close().catch(() => {});
      await receiver?.close();
      await feedPartner?.close();
    },
  };
}
