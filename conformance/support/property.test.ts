import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CheckFailure, isCheckFailure } from '../model/failure.ts';
import { assertProperty } from './property.ts';

const ctx = { seed: 11, fc: { seed: 1234, numRuns: 50 }, exchanges: [] };

async function failureOf(promise: Promise<unknown>): Promise<CheckFailure> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isCheckFailure(error)) throw new Error('expected a CheckFailure');
  return error;
}

describe('assertProperty', () => {
  it('when the property holds, then it resolves', async () => {
    await expect(
      assertProperty(
        ctx,
        fc.property(fc.integer(), (n) => n + 0 === n),
      ),
    ).resolves.toBeUndefined();
  });

  it('when it fails, then the counterexample is shrunk and the seed to replay is printed', async () => {
    const failure = await failureOf(
      assertProperty(
        ctx,
        fc.property(fc.integer({ min: 0, max: 10_000 }), (n) => n < 100),
      ),
    );
    expect(failure.message).toMatch(
      /^property failed after \d+ run\(s\) and \d+ shrink\(s\); smallest counterexample \[100\]: .*Replay with --seed 11 \(fast-check seed 1234, path "[\d:]+"\)$/,
    );
    expect(failure.received).toEqual([100]);
  });

  it('when the predicate throws a CheckFailure, then its expectation and requirements are kept', async () => {
    const failure = await failureOf(
      assertProperty(
        ctx,
        fc.asyncProperty(fc.constantFrom('a', 'b'), async (s) => {
          if (s === 'b')
            throw new CheckFailure({
              message: 'b is refused',
              received: 400,
              expected: 200,
              requirements: ['FILTER-002'],
            });
        }),
      ),
    );
    expect(failure).toMatchObject({ received: 400, expected: 200, requirements: ['FILTER-002'] });
    expect(failure.message).toContain('smallest counterexample ["b"]: b is refused');
  });

  it('when run twice with the same seed, then the same counterexample comes back', async () => {
    const prop = () => fc.property(fc.array(fc.integer()), (xs) => xs.length < 3);
    const a = await failureOf(assertProperty(ctx, prop()));
    const b = await failureOf(assertProperty(ctx, prop()));
    expect(a.received).toEqual(b.received);
  });
});
