import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

// The service is typed from the contract: renaming a schema field or a parameter in
// generated/types.ts (what `npm run generate` would write after a spec change) must fail `tsc` in
// the module that answers or reads it. The renames are made in memory; nothing is copied.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TYPES = `${ROOT}generated/types.ts`;

interface Rename {
  /** The block holding the member: a schema (`        Asset: {`) or an operation (`    getAssetFile: {`). */
  block: string;
  member: string;
  /** The module that must stop compiling. */
  module: string;
}

const RENAMES: readonly Rename[] = [
  { block: '        Asset: {', member: 'filename', module: 'reference-impl/src/assets/assetJson.ts' },
  { block: '        AccountToken: {', member: 'useOptimizedImages', module: 'reference-impl/src/tokens/tokenView.ts' },
  { block: '        FeedRun: {', member: 'runId', module: 'reference-impl/src/feeds/renderFeedRun.ts' },
  { block: '        TokenResponse: {', member: 'access_token', module: 'reference-impl/src/sessions/tokenPair.ts' },
  { block: '        Delivery: {', member: 'itemCount', module: 'reference-impl/src/webhooks/deliveryLog.ts' },
  { block: '        TrcItemCommon: {', member: 'lastupdated', module: 'reference-impl/src/items/renderItem.ts' },
  { block: '        DictionaryRoot: {', member: 'resources', module: 'reference-impl/src/routes/dictionary.ts' },
  { block: '    getAssetFile: {', member: 'mode', module: 'reference-impl/src/routes/assets.ts' },
  { block: '    fetchAndConvertFeedOnce: {', member: 'externalID', module: 'reference-impl/src/routes/feeds.ts' },
];

/** `source` with the first `member` declared inside `block` renamed to `member` + `Renamed`. */
function renameMember(source: string, { block, member }: Rename): string {
  const start = source.indexOf(`\n${block}\n`);
  const indent = block.slice(0, block.length - block.trimStart().length);
  const end = source.indexOf(`\n${indent}};`, start);
  const at = source.slice(start, end).search(new RegExp(`\\n\\s+${member}\\??: `));
  if (start < 0 || end < 0 || at < 0) throw new Error(`no member ${member} in ${block.trim()}`);
  const from = start + at + source.slice(start + at).indexOf(member);
  return `${source.slice(0, from)}${member}Renamed${source.slice(from + member.length)}`;
}

/** The type errors of each module, with generated/types.ts read as `types`; `old` lends its unchanged files. */
function typeErrors(
  types: string,
  modules: readonly string[],
  old?: ts.Program,
): { errors: Map<string, string[]>; program: ts.Program } {
  const config = ts.getParsedCommandLineOfConfigFile(
    `${ROOT}tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  )!;
  const host = ts.createCompilerHost(config.options);
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => (file === TYPES ? types : readFile(file));
  const program = ts.createProgram({
    rootNames: modules.map((module) => `${ROOT}${module}`),
    options: config.options,
    host,
    oldProgram: old,
  });
  const errors = new Map<string, string[]>();
  for (const module of modules) {
    const file = program.getSourceFile(`${ROOT}${module}`)!;
    errors.set(
      module,
      program.getSemanticDiagnostics(file).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    );
  }
  return { errors, program };
}

describe('the service is typed from the contract', () => {
  let asGenerated: Map<string, string[]>;
  let renamed: Map<string, string[]>;

  // Type-checking is slow on a loaded machine; the second program reuses the first one's files.
  beforeAll(() => {
    const modules = RENAMES.map((rename) => rename.module);
    const types = readFileSync(TYPES, 'utf8');
    const first = typeErrors(types, modules);
    asGenerated = first.errors;
    renamed = typeErrors(RENAMES.reduce(renameMember, types), modules, first.program).errors;
  }, 300_000);

  it('when generated/types.ts is as generated, then the modules compile', () => {
    for (const [module, errors] of asGenerated) expect(errors, module).toEqual([]);
  });

  it('when a schema field or a parameter is renamed, then the module that answers or reads it fails tsc', () => {
    const errors = renamed;
    for (const { module, member } of RENAMES) {
      // TypeScript names a missing property in single quotes, a key of a Pick in double ones.
      expect(errors.get(module)!.join('\n'), `${module} after renaming ${member}`).toMatch(
        new RegExp(`['"]${member}['"]`),
      );
    }
  });
});
