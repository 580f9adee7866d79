// `node scripts/bench/conformanceRun.ts [--runs N]`: the certification run against the reference
// service, as CI makes it (tests/conformance/reference.test.ts): the service started once on
// embedded storage with its feed wired to the suite's partner endpoint, then the CLI
// `content-conformance --profile certification` with every token, timed spawn to exit. Prints
// each run's wall time, exit code and check count (docs/benchmarks.md has the row).

import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { wireFeed } from '../../tests/conformance/support/feedPartner.ts';
import { REFERENCE_TIMING, startReferenceService } from '../../tests/conformance/support/referenceService.ts';
import { runSuite } from '../../tests/conformance/support/runSuite.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '1' } } });
const feed = await wireFeed();
const service = await startReferenceService({ env: { FEEDS_FILE: feed.feedsFile } });
try {
  for (let i = 1; i <= Number(values.runs); i++) {
    const run = await runSuite(
      [
        '--base-url',
        service.baseUrl,
        '--profile',
        'certification',
        '--account-id',
        service.accountId,
        ...feed.args,
        ...REFERENCE_TIMING,
      ],
      {
        env: {
          CONFORMANCE_TOKEN: service.tokens.consumer,
          CONFORMANCE_FULL_TOKEN: service.tokens.full,
          CONFORMANCE_ADMIN_TOKEN: service.tokens.admin,
          CONFORMANCE_SESSION_USER: service.user.username,
          CONFORMANCE_SESSION_PASSWORD: service.user.password,
        },
        reportDir: await mkdtemp(join(tmpdir(), 'ctf-bench-')),
        timeoutMs: 900_000,
      },
    );
    const result = run.code === 2 ? undefined : await run.result();
    console.log(
      `run ${i}: ${(run.wallMs / 1000).toFixed(1)} s spawn to exit, exit ${run.code}, verdict ${result?.verdict ?? '-'}, ${result?.checks.length ?? 0} checks (${result?.summary.checks.passed ?? 0} passed)`,
    );
    if (run.code !== 0) console.log(run.stdout.slice(-3000), run.stderr.slice(-2000));
  }
} finally {
  await service.stop();
  await feed.remove();
}
