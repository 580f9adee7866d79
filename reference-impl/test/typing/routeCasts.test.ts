import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Route handlers get their input typed from the contract (`validated(res, operationId)`), so a
// route module needs no type assertion; one would hide a contract change from tsc.

const ROUTES = fileURLToPath(new URL('../../src/routes/', import.meta.url));

/** The `x as T` and `<T>x` expressions of a module's text, as `line: text`. */
function assertionsIn(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart());
      found.push(`${line + 1}: ${node.getText()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('route modules', () => {
  const modules = readdirSync(ROUTES).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));

  it('when the route modules are read, then there are some (the check below looks at real files)', () => {
    expect(modules).toContain('items.ts');
  });

  it('when a route module is parsed, then it holds no type assertion', () => {
    for (const module of modules) {
      expect(assertionsIn(module, readFileSync(`${ROUTES}${module}`, 'utf8')), module).toEqual([]);
    }
  });

  it('when a module holds type assertions, then each is found, and a comment saying "as" is not one', () => {
    const text = '// read as text\nconst a = b as string;\nconst c = <number>d;\nconst e = [1] as const;\n';
    expect(assertionsIn('probe.ts', text)).toEqual(['2: b as string', '3: <number>d', '4: [1] as const']);
  });
});
