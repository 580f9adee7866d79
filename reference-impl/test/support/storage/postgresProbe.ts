import pg from 'pg';

// Whether the tests' PostgreSQL answers (the client keeps a copy: its package imports nothing from
// other project folders). Test infrastructure, so it reads its own two variables:
// TEST_DATABASE_URL, and CI (with CI=true an unreachable PostgreSQL fails the run instead of
// being skipped).

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const IN_CI = process.env.CI === 'true';

/** Whether PostgreSQL answers at TEST_DATABASE_URL; probed once per test file. */
export const postgresProbe: { reachable: boolean; reason?: string } = await probePostgres();

async function probePostgres(): Promise<{ reachable: boolean; reason?: string }> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { reachable: true };
  } catch (error) {
    return { reachable: false, reason: (error as Error).message };
  } finally {
    await client.end().catch(() => {});
  }
}

let warned = false;

/** Should the PostgreSQL tests be skipped? Only when unreachable and CI is not `true`. */
export function skipPostgres(): boolean {
  const skip = !postgresProbe.reachable && !IN_CI;
  if (skip && !warned) {
    warned = true;
    console.warn(
      `PostgreSQL at ${TEST_DATABASE_URL} is unreachable (${postgresProbe.reason}); skipping the PostgreSQL tests. With CI=true they fail instead.`,
    );
  }
  return skip;
}
