// Every MUST is implemented somewhere (`@implements ID`) and verified: by a conformance check,
// or, for what the suite cannot see (a client's or receiver's duty, an unobservable rule), by a
// test whose name carries `[ID]`. docs/traceability.md is the table this reads.
import { describe, expect, it } from 'vitest';
import { traceability } from '../../scripts/traceability.ts';

/** MUSTs verified by no check and no tagged test yet. Keep it short; remove entries when covered. */
const KNOWN_UNVERIFIED: readonly string[] = [
  'HOOK-022', // receivers use the fetched state, not delivery order
];

const { traces, unknownIds } = await traceability();
const musts = traces.filter((t) => t.requirement.level === 'MUST');

describe('traceability of the requirements', () => {
  it('when @implements names an id, then the id is in the catalogue', () => {
    expect(unknownIds).toEqual([]);
  });

  it('when a requirement is a MUST, then some file implements it', () => {
    expect(musts.filter((t) => t.implementedIn.length === 0).map((t) => t.requirement.id)).toEqual([]);
  });

  it('when a requirement is a MUST, then a conformance check or a tagged test verifies it', () => {
    const verifiedBy = (t: (typeof musts)[number]) =>
      t.checks.length > 0 ||
      ((t.requirement.subject !== 'service' || t.requirement.verify === 'unobservable') && t.tests.length > 0);
    expect(
      musts.filter((t) => !verifiedBy(t) && !KNOWN_UNVERIFIED.includes(t.requirement.id)).map((t) => t.requirement.id),
    ).toEqual([]);
  });

  it('when a MUST listed as unverified gains a check or a test, then the list is shortened', () => {
    const verified = musts.filter(
      (t) => KNOWN_UNVERIFIED.includes(t.requirement.id) && (t.checks.length > 0 || t.tests.length > 0),
    );
    expect(verified.map((t) => t.requirement.id)).toEqual([]);
  });
});
