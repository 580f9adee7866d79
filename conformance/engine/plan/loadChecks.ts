// Finds every check: each file under conformance/checks/**/<id>.ts (.js compiled) default-exports the check
// whose id is its file name. Ids, requirement ids and dependencies are validated here, so a
// broken check stops the run before it starts (exit 2), not halfway.

import { readdir } from 'node:fs/promises';
import { basename, extname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Check } from '../../model/check.ts';
import { isCheck } from '../../model/check.ts';
import type { RequirementCatalogue } from '../../spec/requirements.ts';

export const CHECKS_DIR = new URL('../../checks/', import.meta.url);

export class CheckLoadError extends Error {
  override readonly name = 'CheckLoadError';
}

async function listCheckFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return (
    entries
      // .ts in the repository, .js in the compiled package.
      .filter(
        (e) => e.isFile() && /\.[tj]s$/.test(e.name) && !/\.test\.[tj]s$/.test(e.name) && !e.name.endsWith('.d.ts'),
      )
      .map((e) => join(e.parentPath, e.name))
      .sort()
  );
}

export async function loadChecks(dir: string, catalogue?: RequirementCatalogue): Promise<Check[]> {
  const files = await listCheckFiles(dir);
  const checks: Check[] = [];
  const problems: string[] = [];
  for (const file of files) {
    const name = relative(dir, file);
    let mod: Record<string, unknown>;
    try {
      mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    } catch (error) {
      problems.push(`${name}: ${(error as Error).message}`);
      continue;
    }
    const found = Object.values(mod).filter(isCheck);
    if (!isCheck(mod.default)) problems.push(`${name}: must default-export a check (defineCheck({...}))`);
    else if (mod.default.id !== basename(file, extname(file)))
      problems.push(`${name}: the file name must equal the check id (${mod.default.id}${extname(file)})`);
    for (const check of new Set(found)) checks.push(check);
  }
  const ids = new Set<string>();
  for (const check of checks) {
    if (ids.has(check.id)) problems.push(`duplicate check id ${check.id}`);
    ids.add(check.id);
    if (catalogue) {
      for (const r of check.requirements)
        if (!catalogue.has(r)) problems.push(`${check.id}: unknown requirement id ${r} (not in requirements.yaml)`);
    }
  }
  for (const check of checks) {
    for (const d of check.dependsOn) if (!ids.has(d)) problems.push(`${check.id}: dependsOn names unknown check ${d}`);
  }
  if (problems.length > 0) throw new CheckLoadError(`invalid checks:\n  ${problems.join('\n  ')}`);
  return checks;
}
