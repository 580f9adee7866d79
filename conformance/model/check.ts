// A check: a small named function with a stable id and the requirement ids it covers.
//
//   export default defineCheck({
//     id: 'health.responds',
//     title: 'GET /actuator/health answers 200 without a token',
//     requirements: ['HEALTH-001'],
//     run: async (ctx) => { … throw new CheckFailure({ … }) … },
//   });
//
// The level is derived from the requirements' levels when the catalogue is loaded (MUST beats
// SHOULD beats DECISION), unless the check gives one.

import type { Level } from './levels.ts';
import { isLevel } from './levels.ts';

/**
 * The slot for the `ctx` type a check receives. The engine fills it (engine/runtime/context.ts
 * augments this interface with `context: CheckContext`), so the model names the check's shape
 * without importing the engine: the layers import one way.
 */
export interface CheckContextSlot {}

/** The context the engine hands a check's run (unknown until the engine's module fills the slot). */
export type CheckRunContext = CheckContextSlot extends { context: infer C } ? C : unknown;

/**
 * What a check needs from the run before it can start:
 * - `consumer`, `full`, `admin`: that token (admin also needs --account-id);
 * - `write`: a profile that writes (it creates items, tagged with the run id and soft-deleted at the end);
 * - `webhook`: a profile that writes, an admin token and the suite's webhook receiver;
 * - `mutating`: it changes shared state that cleanup cannot fully undo (e.g. an account ontology);
 * - `session`: sign-in credentials of a first-party user (--session-user, --session-password);
 * - `feed`: a profile that writes, an admin token and an inbound feed of its account (--feed-id)
 *   wired to the suite's partner endpoint (--feed-partner-port), which the check runs.
 */
export type Need = 'consumer' | 'full' | 'admin' | 'write' | 'webhook' | 'mutating' | 'session' | 'feed';
export const NEEDS: readonly Need[] = ['consumer', 'full', 'admin', 'write', 'webhook', 'mutating', 'session', 'feed'];

export interface CheckDefinition {
  /** Stable id `<topic>.<name>`, equal to the file name: conformance/checks/<topic>/<id>.ts. */
  id: string;
  title: string;
  requirements: readonly string[];
  level?: Level;
  tags?: readonly string[];
  needs?: readonly Need[];
  /** What the check writes on the target, shown by --dry-run. Required when needs has write/webhook/mutating. */
  writes?: string;
  /** `last`: run after every other check (rate-limit checks drain the target's per-IP budget). */
  order?: 'last';
  /** Checks whose failure explains this one's: used to put the root failure first. */
  dependsOn?: readonly string[];
  run: (ctx: CheckRunContext) => Promise<void>;
}

export interface Check {
  readonly kind: 'conformance-check';
  readonly id: string;
  readonly topic: string;
  readonly title: string;
  readonly requirements: readonly string[];
  readonly explicitLevel: Level | undefined;
  readonly tags: readonly string[];
  readonly needs: readonly Need[];
  readonly writes: string | undefined;
  readonly order: 'normal' | 'last';
  readonly dependsOn: readonly string[];
  readonly run: (ctx: CheckRunContext) => Promise<void>;
}

const ID_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)+$/;
const REQUIREMENT_RE = /^[A-Z]+(?:-[A-Z]+)*-\d{3}$/;
const WRITING_NEEDS: readonly Need[] = ['write', 'webhook', 'mutating', 'feed'];

export function defineCheck(definition: CheckDefinition): Check {
  const { id } = definition;
  const problems: string[] = [];
  if (!ID_RE.test(id))
    problems.push(`id must look like "<topic>.<name>" in lower case (received: ${JSON.stringify(id)})`);
  if (!definition.title) problems.push('title is required');
  if (definition.requirements.length === 0) problems.push('requirements must name at least one requirement id');
  for (const r of definition.requirements) {
    if (!REQUIREMENT_RE.test(r)) problems.push(`requirement id ${JSON.stringify(r)} does not look like FAMILY-NNN`);
  }
  if (definition.level !== undefined && !isLevel(definition.level))
    problems.push(`level must be MUST, SHOULD or DECISION (received: ${String(definition.level)})`);
  const needs = definition.needs ?? [];
  for (const n of needs)
    if (!NEEDS.includes(n)) problems.push(`unknown need ${JSON.stringify(n)}; known: ${NEEDS.join(', ')}`);
  if (needs.some((n) => WRITING_NEEDS.includes(n)) && !definition.writes) {
    problems.push('a check that writes must say what it writes (writes: "…")');
  }
  if (typeof definition.run !== 'function') problems.push('run must be a function');
  if (problems.length > 0) throw new Error(`invalid check ${id}: ${problems.join('; ')}`);

  return Object.freeze({
    kind: 'conformance-check',
    id,
    topic: id.slice(0, id.indexOf('.')),
    title: definition.title,
    requirements: Object.freeze([...definition.requirements]),
    explicitLevel: definition.level,
    tags: Object.freeze([...(definition.tags ?? [])]),
    needs: Object.freeze([...needs]),
    writes: definition.writes,
    order: definition.order ?? 'normal',
    dependsOn: Object.freeze([...(definition.dependsOn ?? [])]),
    run: definition.run,
  });
}

export function isCheck(value: unknown): value is Check {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'conformance-check';
}
