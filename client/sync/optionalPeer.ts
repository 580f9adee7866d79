// The SQL store's database drivers are optional peer dependencies of the client (pg for
// PostgreSQL, @electric-sql/pglite for the embedded one): only the one in use is installed. A
// missing one is named with the command that installs it.

import pkg from '../../package.json' with { type: 'json' };

type Manifest = { peerDependencies?: Record<string, string>; dependencies?: Record<string, string> };

/** An optional peer dependency that is needed and not installed. */
export class MissingPeerDependencyError extends Error {
  readonly packageName: string;
  /** The npm command that installs it, with the range this client works with. */
  readonly installLine: string;
  constructor(packageName: string, purpose: string, cause: unknown) {
    const manifest = pkg as Manifest;
    const range = manifest.peerDependencies?.[packageName] ?? manifest.dependencies?.[packageName];
    const installLine = `npm install ${range === undefined ? packageName : `${packageName}@${range}`}`;
    super(`${purpose} needs the package ${packageName}, which is not installed. Install it with: ${installLine}`, {
      cause,
    });
    this.name = 'MissingPeerDependencyError';
    this.packageName = packageName;
    this.installLine = installLine;
  }
}

/** `import(name)`, or a MissingPeerDependencyError when the package itself is not installed. */
export async function importPeer<T>(name: string, purpose: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const message = String((error as Error).message);
    // Only the package itself: a broken install of it (a missing file inside) is another error.
    if (code === 'ERR_MODULE_NOT_FOUND' && message.includes(`'${name}'`))
      throw new MissingPeerDependencyError(name, purpose, error);
    throw error;
  }
}
