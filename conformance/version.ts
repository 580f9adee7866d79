// The suite's version: the package version, printed in every report.

import { readFile } from 'node:fs/promises';

export async function suiteVersion(): Promise<string> {
  const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}
