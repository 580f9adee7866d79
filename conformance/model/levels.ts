// Requirement levels and subjects, as spec/requirements.yaml defines them.

export type Level = 'MUST' | 'SHOULD' | 'DECISION';
export type Subject = 'service' | 'client' | 'receiver';

export const LEVELS: readonly Level[] = ['MUST', 'SHOULD', 'DECISION'];
export const SUBJECTS: readonly Subject[] = ['service', 'client', 'receiver'];

const RANK: Record<Level, number> = { MUST: 3, SHOULD: 2, DECISION: 1 };

/** The strongest of the levels: MUST beats SHOULD beats DECISION. */
export function strongestLevel(levels: Iterable<Level>): Level | undefined {
  let best: Level | undefined;
  for (const level of levels) if (best === undefined || RANK[level] > RANK[best]) best = level;
  return best;
}

export function isLevel(value: unknown): value is Level {
  return typeof value === 'string' && (LEVELS as readonly string[]).includes(value);
}
