// Ontology helpers for checks: pick usable type nodes and properties from an account's
// ontologies, and the labels an item's types and categories must get from them.

import type { Exchange } from '../model/exchange.ts';
import { CheckFailure } from '../model/failure.ts';
import { assertStatus } from './assert.ts';
import { runFixture } from './fixtures.ts';
import type { Ctx } from './itemTypes.ts';
import { listUserOrganisations } from './organisations.ts';

export interface Ontologies {
  accountId: string;
  categorization: Record<string, unknown> & { categorizations?: unknown[] };
  properties: Record<string, unknown> & { propertyCategories?: unknown[] };
}

/** The type and property ontologies of the account that owns `userorganisation` (DICT-007). */
export function ownerOntologies(ctx: Ctx, userorganisation: string): Promise<Ontologies> {
  return runFixture(ctx, `ontologies:${userorganisation}`, async () => {
    const orgs = await listUserOrganisations(ctx);
    const owner = orgs.find((o) => o.userorganisation === userorganisation);
    if (!owner) {
      throw new CheckFailure({
        message: `GET /dictionary/userorganisations does not list ${userorganisation}, the organisation of an item`,
        received: orgs.map((o) => o.userorganisation).join(', '),
        expected: userorganisation,
        requirements: ['DICT-005', 'DICT-007'],
      });
    }
    const [categorization, properties] = await Promise.all([
      ctx.http.get('/dictionary/categorizationOntology', { query: { accountId: owner.accountId } }),
      ctx.http.get('/dictionary/propertiesOntology', { query: { accountId: owner.accountId } }),
    ]);
    assertStatus(categorization, 200, { requirements: ['DICT-001'] });
    assertStatus(properties, 200, { requirements: ['DICT-003'] });
    return {
      accountId: owner.accountId,
      categorization: categorization.body as Ontologies['categorization'],
      properties: properties.body as Ontologies['properties'],
    };
  });
}

export interface TypeNode {
  cnetID: string;
  categorization: string;
  entityType?: string;
  deprecated?: boolean;
  categorizationTranslations?: { lang: string; label: string }[];
  child?: TypeNode[];
}

/** Every type node with the entity type of its top-level node. */
export function typeNodes(ontology: Ontologies['categorization']): (TypeNode & { tree: string | undefined })[] {
  const out: (TypeNode & { tree: string | undefined })[] = [];
  const walk = (nodes: TypeNode[] | undefined, tree: string | undefined) => {
    for (const n of nodes ?? []) {
      const t = tree ?? n.entityType;
      out.push({ ...n, tree: t });
      walk(n.child, t);
    }
  };
  walk(ontology.categorizations as TypeNode[] | undefined, undefined);
  return out;
}

export interface PropertyNode {
  id: string;
  name: string;
  datatype: string;
  deprecated?: boolean;
  propertytranslations?: { lang: string; text: string }[];
  options?: {
    id: string;
    name: string;
    deprecated?: boolean;
    propertytranslations?: { lang: string; text: string }[];
  }[];
  properties?: PropertyNode[];
}

/** Every property (nested ones too) of a property ontology. */
export function propertyNodes(ontology: Ontologies['properties']): PropertyNode[] {
  const out: PropertyNode[] = [];
  const walk = (nodes: PropertyNode[] | undefined) => {
    for (const n of nodes ?? []) {
      out.push(n);
      walk(n.properties);
    }
  };
  for (const c of (ontology.propertyCategories ?? []) as { properties?: PropertyNode[] }[]) walk(c.properties);
  return out;
}

export type Label = { lang: string; label?: string; value?: string | null };

/** A type node of `tree` (EVENEMENT, LOCATIE, ROUTE) that is not deprecated, a leaf if possible. */
export function pickTypeNode(
  ontology: Ontologies['categorization'],
  tree: string,
): (TypeNode & { tree: string | undefined }) | undefined {
  const nodes = typeNodes(ontology).filter((n) => n.tree === tree && n.deprecated !== true);
  return nodes.find((n) => !n.child || n.child.length === 0) ?? nodes[0];
}

/** A property of `datatype` that is not deprecated (with at least `options` live options). */
export function pickProperty(
  ontology: Ontologies['properties'],
  datatype: string,
  options = 0,
): PropertyNode | undefined {
  return propertyNodes(ontology).find(
    (p) => p.datatype === datatype && p.deprecated !== true && liveOptions(p).length >= options,
  );
}

export function liveOptions(p: PropertyNode): NonNullable<PropertyNode['options']> {
  return (p.options ?? []).filter((o) => o.deprecated !== true);
}

/**
 * The label of a type node in `lang`: its translation (DEC-DICT-007), else its (Dutch) name for
 * nl; undefined when the ontology does not say (then any non-empty label will do).
 */
export function typeLabel(node: TypeNode, lang: string): string | undefined {
  const translated = node.categorizationTranslations?.find((t) => t.lang === lang)?.label;
  if (translated !== undefined) return translated;
  if (!node.categorizationTranslations) return lang === 'nl' ? node.categorization : undefined;
  return node.categorization;
}

/** The label of a property or option in `lang`: its translation, else its (Dutch) name. */
export function propertyLabel(
  node: { name: string; propertytranslations?: { lang: string; text: string }[] },
  lang: string,
): string {
  return node.propertytranslations?.find((t) => t.lang === lang)?.text ?? node.name;
}

/** The Dutch label of an option (what `value` of a choice gets). */
export function dutchLabel(node: { name: string; propertytranslations?: { lang: string; text: string }[] }): string {
  return propertyLabel(node, 'nl');
}

/**
 * `labels` (an entry's categoryTranslations) are the ontology's labels for the item's languages:
 * one per language of the item, each equal to `expected(lang)`; none for another language.
 */
export function assertLabelsFilledIn(
  labels: unknown,
  languages: readonly string[],
  expected: (lang: string) => string | undefined,
  where: string,
  exchanges: readonly Exchange[],
  requirements: readonly string[],
): void {
  const list = Array.isArray(labels) ? (labels as Label[]) : [];
  const byLang = new Map(list.map((l) => [l.lang, l.label]));
  for (const lang of languages) {
    const want = expected(lang);
    const got = byLang.get(lang);
    if (want === undefined ? typeof got === 'string' && got !== '' : got === want) continue;
    throw new CheckFailure({
      message: `${where}: the ${lang} label is not the one the owning account's ontology has`,
      received: byLang.has(lang) ? got : `(no ${lang} label; got ${JSON.stringify(list)})`,
      expected: want ?? `a ${lang} label`,
      requirements,
      exchanges,
    });
  }
  const stray = list.find((l) => !languages.includes(l.lang));
  if (stray) {
    throw new CheckFailure({
      message: `${where}: a label in ${stray.lang}, a language the item does not have`,
      received: stray,
      expected: `labels for ${languages.join(', ')} only`,
      requirements,
      exchanges,
    });
  }
}

/** No label anywhere in the item equals `bogus` (translations sent on write are ignored). */
export function findLabel(value: unknown, bogus: string, path = ''): string | undefined {
  if (typeof value === 'string') return value === bogus ? path : undefined;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const hit = findLabel(v, bogus, `${path}/${i}`);
      if (hit) return hit;
    }
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const hit = findLabel(v, bogus, `${path}/${k}`);
      if (hit) return hit;
    }
  }
  return undefined;
}
