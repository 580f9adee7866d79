import { describe, expect, it } from 'vitest';
import { importPeer, MissingPeerDependencyError } from './optionalPeer.ts';

describe('importPeer', () => {
  it('when the package is installed, then it is imported', async () => {
    const pg = await importPeer<typeof import('pg')>('pg', 'A PostgreSQL store');
    expect(typeof pg.default.Pool).toBe('function');
  });

  it('when the package is not installed, then the error names it and the npm line that installs it', async () => {
    const missing = '@content-service/no-such-driver';
    const error = await importPeer(missing, 'An embedded store').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingPeerDependencyError);
    expect(error).toMatchObject({ packageName: missing, installLine: `npm install ${missing}` });
    expect((error as Error).message).toBe(
      `An embedded store needs the package ${missing}, which is not installed. Install it with: npm install ${missing}`,
    );
  });

  it('when a driver of the client is missing, then the install line carries the range the client works with', () => {
    const error = new MissingPeerDependencyError('@electric-sql/pglite', 'An embedded store', undefined);
    expect(error.installLine).toMatch(/^npm install @electric-sql\/pglite@\^0\.\d+\.\d+$/);
  });
});
