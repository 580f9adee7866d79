import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { checkPropertyOntology, checkTypeOntology, type OntologyProblem } from './checkOntology.ts';
import type { OntologyPair } from './chooseOntologies.ts';
import type { OntologyBody, OntologyOverrides, PropertyOntology, TypeOntology } from '../domain/ontology.ts';

// The dictionary data shipped with the service (ontology-data/): the base ontologies, the type
// ontology overrides (maintained outside the public interface, so loaded from here), an example
// property ontology override and the demo accounts. Files are parsed once, checked, and frozen:
// they are shared by every request, and a stray mutation would change labels for everyone.

const DATA = new URL('./ontology-data/', import.meta.url);
const OVERRIDES = new URL('./overrides/', DATA);

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function readYaml(url: URL): unknown {
  return parse(readFileSync(url, 'utf8'));
}

function checked<T>(url: URL, doc: unknown, check: (doc: unknown) => OntologyProblem[]): T {
  const problems = check(doc);
  if (problems.length > 0) {
    const list = problems
      .slice(0, 5)
      .map((p) => `${p.pointer}: ${p.message}`)
      .join('; ');
    throw new Error(`${url.pathname} is not a valid ontology: ${list}`);
  }
  return deepFreeze(doc as T);
}

let base: OntologyPair | undefined;

/** The base type and property ontologies, each with the `lastModified` of its file. */
export function loadBaseOntologies(): OntologyPair {
  base ??= deepFreeze({
    types: checked<TypeOntology>(
      new URL('typeOntology.base.yaml', DATA),
      readYaml(new URL('typeOntology.base.yaml', DATA)),
      checkTypeOntology,
    ),
    properties: checked<PropertyOntology>(
      new URL('propertiesOntology.base.yaml', DATA),
      readYaml(new URL('propertiesOntology.base.yaml', DATA)),
      checkPropertyOntology,
    ),
  });
  return base;
}

let overrides: OntologyOverrides | undefined;

/** Files `overrides/<accountId>.typeOntology.yaml` and `overrides/<accountId>.propertiesOntology.yaml`. */
export function loadDataOverrides(): OntologyOverrides {
  if (overrides) return overrides;
  const types = new Map<string, OntologyBody<TypeOntology>>();
  const properties = new Map<string, OntologyBody<PropertyOntology>>();
  for (const file of readdirSync(OVERRIDES).sort()) {
    const match = /^([A-Za-z0-9_-]{1,64})\.(typeOntology|propertiesOntology)\.yaml$/.exec(file);
    if (!match) continue;
    const [, accountId = '', kind] = match;
    const url = new URL(file, OVERRIDES);
    if (kind === 'typeOntology') types.set(accountId, checked(url, readYaml(url), checkTypeOntology));
    else properties.set(accountId, checked(url, readYaml(url), checkPropertyOntology));
  }
  overrides = { types, properties };
  return overrides;
}

export interface DemoAccount {
  id: string;
  name: string;
  /** The userorganisations of the account, as items name them. */
  organisations: string[];
}

/** The demo accounts and their organisations, for the demo seed. */
export function loadDemoAccounts(): readonly DemoAccount[] {
  const doc = readYaml(new URL('demoAccounts.yaml', DATA)) as { accounts?: DemoAccount[] };
  return deepFreeze(doc.accounts ?? []);
}
