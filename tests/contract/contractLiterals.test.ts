import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  ENTITY_TYPES,
  PAGE_SIZE,
  RESOURCE_TYPES,
  WEBHOOK_EVENT_NAMES,
  WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS,
  WORKFLOW_STATUSES,
} from '../../generated/constants.ts';
import { repoRoot } from '../../scripts/lib/run.ts';
import { shippedModules } from '../../scripts/release-pack.ts';

// Production code takes the contract's values from generated/constants.ts, so a spec change
// reaches it through `npm run generate` and tsc instead of a search through the sources. A literal
// equal to an entity type, a workflow status, a webhook resource type or event name, the largest
// page size or the webhook timestamp tolerance is reported, in value and type positions alike (a type has `WorkflowStatus`,
// `EntityType` and `typeof WORKFLOW_STATUS.approved`). Production code is what the packages ship
// (release-pack's rule), without spec/ and generated/.

const CONTRACT_STRINGS = new Set<string>([
  ...ENTITY_TYPES,
  ...WORKFLOW_STATUSES,
  ...Object.values(RESOURCE_TYPES),
  ...Object.values(WEBHOOK_EVENT_NAMES),
]);
const CONTRACT_NUMBERS = new Set<number>([PAGE_SIZE.maximum, WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS]);

interface Coincidence {
  file: string;
  /** Part of the literal's surroundings (its parent, or the type a literal type sits in), spaces collapsed. */
  context: string;
  /** What the value is instead of the contract's. */
  is: string;
}

/** Literals that equal a contract value but mean something else. */
const COINCIDENCES: readonly Coincidence[] = [
  {
    file: 'reference-impl/src/domain/itemWrite.ts',
    context: "'published', 'deleted', 'offline'",
    is: 'the legacy boolean field deleted',
  },
  { file: 'conformance/engine/plan/order.ts', context: "'WRITE', 'ROUTE', 'ONTO'", is: 'the requirement group ROUTE' },
  { file: 'conformance/support/webhooks.ts', context: "reason ?? 'rejected'", is: "the signature verifier's verdict" },
  { file: 'reference-impl/src/items/schemaOrg.ts', context: "EVENEMENT: 'Event'", is: 'the schema.org type Event' },
  {
    file: 'conformance/support/webhooks.ts',
    context: "toString('utf8', 0, 300)",
    is: 'bytes of a delivery quoted in a failure',
  },
  {
    file: 'conformance/support/webhooks.ts',
    context: '(previous.response.delayMs ?? 0) <= 2_000',
    is: 'milliseconds an answer was held',
  },
  { file: 'conformance/checks/retries/retries.permanent.ts', context: "hookToken(ctx, 'deleted')", is: 'a label' },
  { file: 'conformance/checks/retries/retries.permanent.ts', context: 'delayMs: 300', is: 'milliseconds' },
  { file: 'conformance/checks/tokens/tokens.rotate-secret.ts', context: 'delayMs: 300', is: 'milliseconds' },
  { file: 'conformance/checks/ratelimits/ratelimits.burst.ts', context: 'SERIES_MS = 2_000', is: 'milliseconds' },
  { file: 'conformance/support/assets.ts', context: 'res.text.slice(0, 300)', is: 'characters quoted in a failure' },
  { file: 'conformance/support/tokens.ts', context: 'res.text.slice(0, 300)', is: 'characters quoted in a failure' },
  { file: 'conformance/model/outcome.ts', context: 'limit = 2000', is: 'characters of a reported value' },
  { file: 'reference-impl/src/feeds/convertEntry.ts', context: 'externalId.slice(0, 300)', is: 'characters' },
  { file: 'reference-impl/src/feeds/feedRuns.ts', context: '.slice(0, 2000)', is: 'characters of a run error' },
  { file: 'reference-impl/src/feeds/importEntries.ts', context: '.slice(0, 2000)', is: 'characters of a run error' },
  { file: 'reference-impl/src/ratelimit/redisStore.ts', context: 'times * 200, 2000', is: 'milliseconds' },
  { file: 'reference-impl/src/ratelimit/redisStore.ts', context: 'timeoutMs = 2000', is: 'milliseconds' },
  { file: 'reference-impl/src/domain/timestamps.ts', context: '(last - first) / 2000', is: 'half, in seconds' },
];

/** `status < 300` and the like: an HTTP status class bound, whatever the contract's numbers are. */
function boundsHttpStatus(literal: ts.Node): boolean {
  const parent = literal.parent;
  if (!ts.isBinaryExpression(parent)) return false;
  const other = parent.left === literal ? parent.right : parent.left;
  const name = ts.isPropertyAccessExpression(other) ? other.name.text : ts.isIdentifier(other) ? other.text : '';
  return name === 'status' && parent.operatorToken.kind !== ts.SyntaxKind.EqualsToken;
}

function contextOf(literal: ts.Node): string {
  const around = ts.isLiteralTypeNode(literal.parent) ? literal.parent.parent : literal.parent;
  return around.getText().replace(/\s+/g, ' ');
}

/** The contract literals of one module, as `file:line: literal`. */
function contractLiteralsIn(file: string, text: string, coincidences = COINCIDENCES): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const contract =
      ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && CONTRACT_STRINGS.has(node.text)) ||
      (ts.isNumericLiteral(node) && CONTRACT_NUMBERS.has(Number(node.text)) && !boundsHttpStatus(node));
    if (contract && !coincidences.some((c) => c.file === file && contextOf(node).includes(c.context))) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart());
      found.push(`${file}:${line + 1}: ${node.getText()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The TypeScript modules the packages ship, but spec/ and generated/. */
const productionModules = (): string[] => shippedModules().filter((m) => !/^(spec|generated)\//.test(m));

describe('contract values in production code', () => {
  const modules = productionModules();

  it('when the production modules are listed, then they span the packages and leave tests out', () => {
    expect(modules).toEqual(
      expect.arrayContaining([
        'reference-impl/src/domain/workflow.ts',
        'client/sync/syncItems.ts',
        'conformance/checks/workflow/workflow.transitions.ts',
      ]),
    );
    expect(modules.filter((m) => /\.test\.ts$|\/selftest\/|\/testing\/|^conformance\/test\//.test(m))).toEqual([]);
  });

  it('when a production module is parsed, then it types no entity type, status, resource type, event name, page size maximum or tolerance', () => {
    const hits = modules.flatMap((m) => contractLiteralsIn(m, readFileSync(path.join(repoRoot, m), 'utf8')));
    expect(hits, `import the value from generated/constants.ts instead:\n${hits.join('\n')}\n`).toEqual([]);
  });

  it('when every coincidence is matched, then each still names a literal of its file', () => {
    for (const c of COINCIDENCES) {
      const text = readFileSync(path.join(repoRoot, c.file), 'utf8');
      const others = COINCIDENCES.filter((o) => o !== c);
      expect(contractLiteralsIn(c.file, text, others).length, `${c.file}: ${c.context}`).toBeGreaterThan(0);
    }
  });

  it('when a module types contract values, then each is found, and status bounds and constants are not', () => {
    const [status, type] = [WORKFLOW_STATUSES[2], ENTITY_TYPES[0]];
    const text = [
      `const a = item.wfstatus === '${status}';`,
      `type T = '${status}' | 'other';`,
      `const b = { entitytype: \`${type}\`, size: ${PAGE_SIZE.maximum} };`,
      `const c = Math.abs(skew) <= ${WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS};`,
      `const d = res.status < 300 && status >= 200;`,
      `const e = item.wfstatus === WORKFLOW_STATUS.${status} && '${status}x' !== '';`,
    ].join('\n');
    expect(contractLiteralsIn('probe.ts', text)).toEqual([
      `probe.ts:1: '${status}'`,
      `probe.ts:2: '${status}'`,
      `probe.ts:3: \`${type}\``,
      `probe.ts:3: ${PAGE_SIZE.maximum}`,
      `probe.ts:4: ${WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS}`,
    ]);
  });
});
