import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { shippedModules } from '../../scripts/release-pack.ts';
import { repoRoot } from '../../scripts/lib/run.ts';

// One implementation of each mechanism: a JSON type guard, a Retry-After parser and the way a
// `$ref` becomes a node each live in one module, and the shipped code and the build scripts use
// that one. A second definition of the same name, or a `$ref` looked up by hand, is reported.

/** Where each shared helper is defined, by the names it (or a copy of it) would go by. */
const HOMES = new Map<string, string>(
  Object.entries({
    isObject: 'spec/json.ts',
    isRecord: 'spec/json.ts',
    isPlainObject: 'spec/json.ts',
    parseRetryAfter: 'client/http/retry.ts',
    refTarget: 'spec/access/pointer.ts',
    resolveRef: 'spec/access/pointer.ts',
  }),
);
const REF_FOLLOWER = 'spec/access/pointer.ts';

/** Definitions of a shared helper's name outside its home, and `$ref`s followed outside the follower. */
function secondImplementations(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const hits: string[] = [];
  const at = (node: ts.Node, what: string) =>
    hits.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what}`);
  const visit = (node: ts.Node): void => {
    const named =
      ts.isFunctionDeclaration(node) && node.name
        ? node.name.text
        : ts.isVariableDeclaration(node) &&
            ts.isIdentifier(node.name) &&
            node.initializer &&
            (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))
          ? node.name.text
          : undefined;
    const home = named === undefined ? undefined : HOMES.get(named);
    if (home !== undefined && home !== file) at(node, `defines ${named} (use ${home}'s)`);
    if (file !== REF_FOLLOWER) {
      const looksUp =
        ts.isCallExpression(node) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === 'getAt' &&
        node.arguments.slice(1).some((a) => a.getText(source).includes('$ref'));
      const loops = ts.isWhileStatement(node) && node.expression.getText(source).includes('$ref');
      if (looksUp || loops) at(node, `follows a $ref itself (use refTarget or resolveLocal of ${REF_FOLLOWER})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return hits;
}

const scriptModules = (): string[] =>
  readdirSync(path.join(repoRoot, 'scripts'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.includes('.test.'))
    .map((f) => path.posix.join('scripts', f));

describe('one implementation of each mechanism', () => {
  it('when the shipped modules and scripts are parsed, then no helper is defined twice and no $ref is followed by hand', () => {
    const modules = [...shippedModules(), ...scriptModules()];
    expect(modules).toEqual(
      expect.arrayContaining(['spec/access/pointer.ts', 'conformance/arbitraries/fromSchema.ts']),
    );
    const hits = modules.flatMap((m) => secondImplementations(m, readFileSync(path.join(repoRoot, m), 'utf8')));
    expect(hits, hits.join('\n')).toEqual([]);
  });

  it('when a module copies a guard or looks a $ref up, then each is reported; the homes are not', () => {
    const text = [
      'function isObject(v: unknown) { return typeof v === "object"; }',
      'const parseRetryAfter = (h: string) => Number(h);',
      'const target = getAt(doc, node.$ref);',
      'while (typeof current.$ref === "string") current = next(current);',
      'const fine = getAt(doc, "/components");',
    ].join('\n');
    expect(secondImplementations('probe.ts', text)).toEqual([
      "probe.ts:1: defines isObject (use spec/json.ts's)",
      "probe.ts:2: defines parseRetryAfter (use client/http/retry.ts's)",
      'probe.ts:3: follows a $ref itself (use refTarget or resolveLocal of spec/access/pointer.ts)',
      'probe.ts:4: follows a $ref itself (use refTarget or resolveLocal of spec/access/pointer.ts)',
    ]);
    expect(secondImplementations('spec/json.ts', 'export function isObject(v: unknown) { return !!v; }')).toEqual([]);
  });
});
