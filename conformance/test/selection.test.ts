// Which checks run, and what a skip means, on a real (fake) target; in process for speed.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_TOKEN, startFakeTarget } from './fakeTarget.ts';
import { MINI_SPEC } from './runCli.ts';
import { runInProcess } from './runInProcess.ts';

describe('selection and profiles', () => {
  let target: Awaited<ReturnType<typeof startFakeTarget>>;
  beforeAll(async () => {
    target = await startFakeTarget();
  });
  afterAll(async () => target.close());
  const base = () => ['--base-url', target.baseUrl, '--spec', MINI_SPEC];

  it('when a MUST check is skipped under the certification profile, then it counts as a failure', async () => {
    const result = await runInProcess([...base(), '--profile', 'certification', '--only', 'health.*'], {
      CONFORMANCE_TOKEN: GOOD_TOKEN,
    });
    expect(result.exitCode).toBe(1);
    expect(result.checks.find((c) => c.id === 'auth.missing-token-401')).toMatchObject({
      status: 'failed',
      failure: { kind: 'not-verified', message: expect.stringContaining('not selected by --only') },
    });
  });

  it('when no consumer token is given in the consumer profile, then token checks are skipped with the reason and the run passes', async () => {
    const result = await runInProcess(base());
    expect(result.checks.find((c) => c.id === 'lists.bare-array')).toMatchObject({
      status: 'skipped',
      skipReason: 'needs a consumer token (--token)',
    });
    expect(result.requirements.find((r) => r.id === 'LIST-001')).toMatchObject({
      verdict: 'not-verified',
      reason: 'lists.bare-array skipped: needs a consumer token (--token)',
    });
    expect(result.exitCode).toBe(0);
  });

  it('when --skip names a tag or a requirement glob, then those checks are skipped', async () => {
    const result = await runInProcess([...base(), '--skip', 'smoke,LIMIT-*'], { CONFORMANCE_TOKEN: GOOD_TOKEN });
    const framework = ['health.responds', 'auth.missing-token-401', 'lists.bare-array', 'limits.size-cap'];
    expect(result.checks.filter((c) => framework.includes(c.id)).map((c) => [c.id, c.status, c.skipReason])).toEqual([
      ['health.responds', 'skipped', 'excluded by --skip smoke'],
      ['auth.missing-token-401', 'skipped', 'excluded by --skip smoke'],
      ['lists.bare-array', 'skipped', 'excluded by --skip smoke'],
      ['limits.size-cap', 'skipped', 'excluded by --skip LIMIT-*'],
    ]);
  });
});
