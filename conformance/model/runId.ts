// The run id tags everything the suite writes (`ctf-k3x9q2`), so that a foreign deployment can
// tell the suite's test data apart and cleanup finds it.

import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

export function newRunId(random: (n: number) => Buffer = randomBytes): string {
  return `ctf-${[...random(6)].map((b) => ALPHABET[b % 36]).join('')}`;
}

export function isRunId(value: string): boolean {
  return /^ctf-[0-9a-z]{6}$/.test(value);
}

/** A per-check seed derived from the run seed, so `--only` does not change a check's inputs. */
export function deriveSeed(seed: number, checkId: string): number {
  return createHash('sha256').update(`${seed}:${checkId}`).digest().readInt32BE(0);
}
