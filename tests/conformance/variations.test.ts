// Self-test in the other direction: a vendor who decided differently where the interface says
// "not shown" still conforms. The reference service runs behind the fault proxy with the
// conforming variations of conformance/selftest/variations.ts: all response-shape variations at
// once in one full certification run, then each alone with its own checks. No run may fail a
// MUST; each difference from our decisions must be listed as a decision deviation.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../../conformance/engine/results/result.ts';
import type { FaultModifier } from '../../conformance/selftest/faultProxy.ts';
import { VARIATIONS } from '../../conformance/selftest/variations.ts';
import type { Variation } from '../../conformance/selftest/variations.ts';
import type { TargetVariants } from '../../conformance/model/variants.ts';
import { startProxiedReferenceWithChecks } from './support/proxiedReference.ts';
import type { ProxiedReference } from './support/proxiedReference.ts';

let target: ProxiedReference | undefined;
let checkIds: Set<string>;
/** The variations of the combined full run (all discovered: none declares a variant). */
const COMBINED = VARIATIONS.filter((v) => !v.pending && !v.declares);

/**
 * A certification run through the proxy with these modifiers; `only`: limit it to these checks;
 * `declares`: variants declared in a config file, as a vendor would.
 */
async function certify(
  modifiers: FaultModifier[],
  only: readonly string[] | undefined,
  declares?: Partial<TargetVariants>,
): Promise<{ result: RunResult; applied: Map<string, number> }> {
  const dir = declares ? await mkdtemp(join(tmpdir(), 'ctf-variation-')) : undefined;
  const configFile = dir ? join(dir, 'content-conformance.yaml') : undefined;
  if (configFile) await writeFile(configFile, JSON.stringify({ variants: declares }));
  try {
    return await target!.run('certification', modifiers, [
      ...(only ? ['--only', only.join(',')] : []),
      ...(configFile ? ['--config', configFile] : []),
    ]);
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

/** MUST failures among the checks that ran (`only`: the selected ones; the rest are not run). */
function mustFailures(result: RunResult, only: readonly string[] | undefined): string[] {
  return result.checks
    .filter((c) => (!only || only.includes(c.id)) && c.status === 'failed' && c.failureLevel === 'MUST')
    .map((c) => `${c.id} [${c.failure!.requirements.join(', ')}]: ${c.failure!.message}`);
}

const modifierNames = (variation: Variation) => variation.modifiers().map((mod) => mod.name);

/**
 * DEC ids the checks that ran found the target to differ in: a response valid in the interface
 * layer but not in ours (a deviation), or a DECISION check that failed. Not the requirement
 * verdicts: under --only, every check left out counts as failed.
 */
function decisionDeviations(result: RunResult, only: readonly string[] | undefined): string[] {
  const ran = result.checks.filter((c) => !only || only.includes(c.id));
  const found = new Set(ran.flatMap((c) => (c.deviations ?? []).flatMap((d) => d.decisions)));
  for (const c of ran)
    if (c.status === 'failed' && c.failureLevel === 'DECISION' && c.failure?.kind !== 'not-verified')
      for (const id of c.failure!.requirements) found.add(id);
  return [...found].sort();
}

describe('the suite passes a conforming vendor that decided differently where the interface is silent', () => {
  beforeAll(async () => {
    ({ target, checkIds } = await startProxiedReferenceWithChecks());
  }, 120_000);

  afterAll(async () => {
    await target?.close();
  });

  (COMBINED.length > 0 ? it : it.skip)(
    `when ${COMBINED.map((v) => v.name).join(', ')} are on at once, then the certification run exits 0 and lists their deviations under decisions`,
    async () => {
      const started = Date.now();
      const { result, applied } = await certify(
        COMBINED.flatMap((v) => v.modifiers()),
        undefined,
      );
      console.info(`variations: the combined certification run took ${((Date.now() - started) / 1000).toFixed(1)} s`);
      expect(mustFailures(result, undefined)).toEqual([]);
      expect(result.exitCode, `verdict ${result.verdict}`).toBe(0);
      const expected = COMBINED.flatMap((v) => v.deviations);
      expect(decisionDeviations(result, undefined)).toEqual(expect.arrayContaining(expected));
      const verdicts = new Map(result.requirements.map((r) => [r.id, r.verdict]));
      for (const id of expected) expect(verdicts.get(id), id).toBe('decision-fail');
      for (const name of COMBINED.flatMap(modifierNames))
        expect(applied.get(name) ?? 0, `${name} never applied`).toBeGreaterThan(0);
    },
    600_000,
  );

  for (const variation of VARIATIONS) {
    const test = variation.pending ? it.skip : it;
    test(`when ${variation.name} alone (${variation.notShown}), then its checks fail no MUST${variation.deviations.length ? ` and ${variation.deviations.join(', ')} is a decision deviation` : ''}`, async () => {
      await expectPasses(variation);
    }, 300_000);
  }
});

async function expectPasses(variation: Variation): Promise<void> {
  expect((variation.checks ?? []).filter((id) => !checkIds.has(id))).toEqual([]);
  const { result, applied } = await certify(variation.modifiers(), variation.checks, variation.declares);
  const ran = result.checks.filter((c) => !variation.checks || variation.checks.includes(c.id));
  console.info(
    `${variation.name}: ${ran.map((c) => `${c.id} ${c.status}`).join(', ')}; differs in ${decisionDeviations(result, variation.checks).join(', ')}`,
  );
  expect(mustFailures(result, variation.checks)).toEqual([]);
  expect(decisionDeviations(result, variation.checks)).toEqual(expect.arrayContaining(variation.deviations));
  for (const name of modifierNames(variation))
    expect(applied.get(name) ?? 0, `${name} never applied`).toBeGreaterThan(0);
  for (const id of variation.unobservable ?? []) {
    const check = result.checks.find((c) => c.id === id);
    expect(check?.status, `${id} status`).toBe('passed');
    expect(
      check?.unverified.some((u) => u.unobservable),
      `${id} reports its rules as not verifiable black-box`,
    ).toBe(true);
  }
  for (const id of variation.observes ?? []) {
    const check = result.checks.find((c) => c.id === id);
    expect(check?.status, `${id} status`).toBe('passed');
    expect(check?.unverified, `${id} observes all its rules`).toEqual([]);
  }
  for (const name of Object.keys(variation.declares ?? {}))
    expect(result.targetVariants?.find((v) => v.name === name)?.source, `target variant ${name}`).toBe('declared');
  for (const [name, value] of Object.entries(variation.discovers ?? {}))
    expect(
      result.targetVariants?.find((v) => v.name === name),
      `target variant ${name}`,
    ).toMatchObject({
      value,
      source: 'discovered',
    });
}
