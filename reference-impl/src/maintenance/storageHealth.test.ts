import { describe, expect, it } from 'vitest';
import type { Queryable } from '../storage/db.ts';
import { storageIsUp } from './storageHealth.ts';

describe('storageIsUp', () => {
  it('when the store answers, then up [HEALTH-001]', async () => {
    const answering: Queryable = { query: async () => ({ rows: [] }) };
    expect(await storageIsUp(answering)).toBe(true);
  });

  it('when the store fails the query, then down rather than an error [HEALTH-001]', async () => {
    const failing: Queryable = {
      query: async () => {
        throw new Error('connection refused');
      },
    };
    expect(await storageIsUp(failing)).toBe(false);
  });
});
