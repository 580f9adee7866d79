// Shared readers for the contract tests: the bundled spec (generated/openapi.json), the
// requirement catalogue (spec/requirements.yaml) and the decisions (spec/DECISIONS.md).
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { escapePointer, HTTP_METHODS, loadSpec as loadBundle, resolveLocal, resolveRef } from '../../spec/index.ts';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

export type OpenApi = Record<string, any>;
export type Operation = {
  /** `paths` or `webhooks` */
  section: 'paths' | 'webhooks';
  /** The path, or the webhook's name. */
  key: string;
  method: (typeof HTTP_METHODS)[number];
  op: Record<string, any>;
  /** JSON pointer of the operation inside the bundled document. */
  pointer: string;
  /** Path-item and operation parameters, with $refs resolved. */
  parameters: Array<Record<string, any>>;
  /** `GET /events` or `webhook EventUpdated`. */
  label: string;
};

export type Requirement = { id: string; level: string; subject: string; section: string; statement: string };

export function loadSpec(): OpenApi {
  return loadBundle().document;
}

export function loadRequirements(): Requirement[] {
  const doc = YAML.parse(fs.readFileSync(path.join(repoRoot, 'spec/requirements.yaml'), 'utf8')) as {
    requirements: Requirement[];
  };
  return doc.requirements;
}

/** Ids in the first column of the decision tables of spec/DECISIONS.md. */
export function loadDecisionIds(): string[] {
  const text = fs.readFileSync(path.join(repoRoot, 'spec/DECISIONS.md'), 'utf8');
  return [...text.matchAll(/^\|\s*(DEC-[A-Z]+-\d{3})\s*\|/gm)].map((m) => m[1] as string);
}

export function operations(document: OpenApi): Operation[] {
  const found: Operation[] = [];
  for (const section of ['paths', 'webhooks'] as const) {
    for (const [key, rawItem] of Object.entries((document[section] ?? {}) as Record<string, any>)) {
      const itemPointer = `/${section}/${escapePointer(key)}`;
      const item = resolveLocal(document, rawItem, itemPointer).value;
      for (const method of HTTP_METHODS) {
        const op = item?.[method];
        if (!op) continue;
        const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: any) =>
          resolveRef(document, p),
        );
        found.push({
          section,
          key,
          method,
          op,
          pointer: `${itemPointer}/${method}`,
          parameters,
          label: section === 'paths' ? `${method.toUpperCase()} ${key}` : `webhook ${key}`,
        });
      }
    }
  }
  return found;
}

/** Calls `visit` for every object node of the document with its JSON pointer. */
export function walk(
  node: unknown,
  pointer: string,
  visit: (node: Record<string, any>, pointer: string) => void,
): void {
  if (Array.isArray(node)) {
    node.forEach((child, i) => walk(child, `${pointer}/${i}`, visit));
  } else if (node && typeof node === 'object') {
    visit(node as Record<string, any>, pointer);
    for (const [key, child] of Object.entries(node)) walk(child, `${pointer}/${escapePointer(key)}`, visit);
  }
}
