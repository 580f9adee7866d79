// The fault table itself: every rule family has a fault, every fault names real requirements
// its checks cover, every modifier is used, and the README's table lists every fault.

import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHECKS_DIR, loadChecks } from '../engine/plan/loadChecks.ts';
import { familyOf, isBlackbox, loadRequirements } from '../spec/requirements.ts';
import { FAULTS } from './faults.ts';
import { VARIATIONS } from './variations.ts';
import { WITHOUT_FAULT } from './withoutFault.ts';

const catalogue = await loadRequirements(fileURLToPath(new URL('../../spec/requirements.yaml', import.meta.url)));
const checks = await loadChecks(fileURLToPath(CHECKS_DIR), catalogue);

describe("the self-test's fault table", () => {
  it('when the catalogue is read, then every family of black-box MUST requirements has a fault detected on one of them', () => {
    const families = new Set(
      catalogue.all
        .filter((r) => r.subject === 'service' && r.level === 'MUST' && isBlackbox(r))
        .map((r) => familyOf(r.id)),
    );
    const covered = new Set(FAULTS.flatMap((f) => f.detects.map(familyOf)));
    expect([...families].filter((f) => !covered.has(f)).sort()).toEqual([]);
  });

  it('when the catalogue is read, then every service MUST checkable by HTTP has its own fault or a reason why not', () => {
    const detected = new Set(FAULTS.flatMap((f) => f.detects));
    const musts = catalogue.all.filter(
      (r) => r.subject === 'service' && r.level === 'MUST' && (isBlackbox(r) || r.verify === 'needs-feed'),
    );
    expect(musts.filter((r) => !detected.has(r.id) && !(r.id in WITHOUT_FAULT)).map((r) => r.id)).toEqual([]);
    expect(Object.keys(WITHOUT_FAULT).filter((id) => detected.has(id))).toEqual([]);
    const ids = new Set(musts.map((r) => r.id));
    expect(Object.keys(WITHOUT_FAULT).filter((id) => !ids.has(id))).toEqual([]);
    expect(Object.entries(WITHOUT_FAULT).filter(([, reason]) => reason.trim() === '')).toEqual([]);
  });

  it('when a fault names requirements, then they exist and one of its checks covers each it must detect', () => {
    for (const fault of FAULTS) {
      for (const id of [...fault.detects, ...(fault.alsoBreaks ?? [])])
        expect(catalogue.has(id), `${fault.name}: ${id}`).toBe(true);
      for (const id of fault.checks)
        expect(
          checks.some((c) => c.id === id),
          `${fault.name}: no check ${id}`,
        ).toBe(true);
      const existing = checks.filter((c) => fault.checks.includes(c.id));
      expect(existing.length, fault.name).toBeGreaterThan(0);
      for (const id of fault.detects)
        expect(
          existing.some((c) => c.requirements.includes(id)),
          `${fault.name}: no check of ${fault.checks.join(', ')} covers ${id}`,
        ).toBe(true);
    }
  });

  it('when the modifiers folder is listed, then every modifier is used by a fault or a variation', async () => {
    const inVariations = new Set(VARIATIONS.flatMap((v) => v.modifiers().map((mod) => mod.name)));
    const files = (await readdir(new URL('./modifiers/', import.meta.url)))
      .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
      .map((f) => f.replace(/\.ts$/, ''));
    const index = await readFile(new URL('./modifiers/index.ts', import.meta.url), 'utf8');
    for (const name of files) {
      expect(index, `${name} is not exported by modifiers/index.ts`).toContain(
        `export { ${name} } from './${name}.ts';`,
      );
      expect(
        FAULTS.some((f) => f.name === name || f.name.startsWith(`${name}(`)) || inVariations.has(name),
        `no fault or variation uses ${name}`,
      ).toBe(true);
    }
  });

  it('when a variation names deviations and checks, then they are DECISION requirements and existing checks', () => {
    expect(new Set(VARIATIONS.map((v) => v.name)).size).toBe(VARIATIONS.length);
    for (const v of VARIATIONS) {
      for (const id of v.deviations) expect(catalogue.get(id)?.level, `${v.name}: ${id}`).toBe('DECISION');
      for (const id of v.checks ?? [])
        expect(
          checks.some((c) => c.id === id),
          `${v.name}: no check ${id}`,
        ).toBe(true);
      expect(v.modifiers().length, v.name).toBeGreaterThan(0);
    }
  });

  it('when README.md is read, then its table has a row for every fault with its requirement ids', async () => {
    const readme = await readFile(new URL('./README.md', import.meta.url), 'utf8');
    for (const f of FAULTS)
      expect(readme, `README row for ${f.name} (${f.family})`).toContain(
        `| \`${f.name}\` | ${f.family} | ${f.detects.join(', ')} |`,
      );
  });
});
