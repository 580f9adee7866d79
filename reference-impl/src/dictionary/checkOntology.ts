import { DATATYPES, TREE_ENTITY_TYPES, type Datatype } from '../domain/ontology.ts';
import { isObject } from '../../../spec/json.ts';

// Rules of an ontology document that a JSON schema cannot say: ids unique in the whole document,
// options exactly where the datatype has them, dotted cnetIDs that extend their parent's. The PUT
// of a property ontology answers these as a 400 (after schema validation); data files we ship
// are checked by their tests and when seeded. Problems use the error body's `details[]` shape.

export interface OntologyProblem {
  pointer: string;
  message: string;
}

type Loose = Record<string, unknown>;
const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const WITH_OPTIONS: ReadonlySet<Datatype> = new Set(['choice', 'multichoice']);
const CNET_ID = /^[0-9]+(\.[0-9]+)*$/;

class Problems {
  readonly list: OntologyProblem[] = [];
  add(pointer: string, message: string): void {
    this.list.push({ pointer, message });
  }
  /** Records the first place of each id and reports a repeat. */
  unique(seen: Map<string, string>, id: unknown, pointer: string, what: string): void {
    if (typeof id !== 'string' || id === '')
      return this.add(pointer, `${what} must be a non-empty string (received: ${JSON.stringify(id)})`);
    const first = seen.get(id);
    if (first !== undefined)
      return this.add(
        pointer,
        `${what} ${JSON.stringify(id)} is already used at ${first}; ids must be unique in the whole ontology`,
      );
    seen.set(id, pointer);
  }
  nonEmpty(value: unknown, pointer: string, what: string): void {
    if (typeof value !== 'string' || value.trim() === '')
      this.add(pointer, `${what} must be a non-empty string (received: ${JSON.stringify(value)})`);
  }
}

// @implements ONTO-013
export function checkPropertyOntology(doc: unknown): OntologyProblem[] {
  const problems = new Problems();
  if (!isObject(doc) || !Array.isArray(doc.propertyCategories)) {
    problems.add('/propertyCategories', 'propertyCategories must be an array of property categories');
    return problems.list;
  }
  const categoryIds = new Map<string, string>();
  const propertyIds = new Map<string, string>();
  const optionIds = new Map<string, string>();

  const checkProperty = (property: unknown, at: string): void => {
    if (!isObject(property)) return problems.add(at, 'a property must be an object');
    problems.unique(propertyIds, property.id, `${at}/id`, 'property id');
    problems.nonEmpty(property.name, `${at}/name`, 'name');
    const datatype = property.datatype as Datatype;
    if (!DATATYPES.includes(datatype)) {
      problems.add(
        `${at}/datatype`,
        `datatype must be one of ${DATATYPES.join(', ')} (received: ${JSON.stringify(property.datatype)})`,
      );
    }
    const options = asList(property.options);
    if (WITH_OPTIONS.has(datatype) && options.length === 0) {
      problems.add(`${at}/options`, `a ${datatype} property needs at least one option`);
    }
    if (!WITH_OPTIONS.has(datatype) && options.length > 0 && DATATYPES.includes(datatype)) {
      problems.add(`${at}/options`, `only choice and multichoice properties have options (datatype: ${datatype})`);
    }
    options.forEach((option, i) => {
      const oat = `${at}/options/${i}`;
      if (!isObject(option)) return problems.add(oat, 'an option must be an object');
      problems.unique(optionIds, option.id, `${oat}/id`, 'option id');
      problems.nonEmpty(option.name, `${oat}/name`, 'name');
    });
    asList(property.properties).forEach((sub, i) => checkProperty(sub, `${at}/properties/${i}`));
  };

  doc.propertyCategories.forEach((category, c) => {
    const at = `/propertyCategories/${c}`;
    if (!isObject(category)) return problems.add(at, 'a property category must be an object');
    problems.unique(categoryIds, category.id, `${at}/id`, 'category id');
    problems.nonEmpty(category.name, `${at}/name`, 'name');
    asList(category.properties).forEach((property, p) => checkProperty(property, `${at}/properties/${p}`));
  });
  return problems.list;
}

// @implements ONTO-011
export function checkTypeOntology(doc: unknown): OntologyProblem[] {
  const problems = new Problems();
  if (!isObject(doc) || !Array.isArray(doc.categorizations)) {
    problems.add('/categorizations', 'categorizations must be an array of nodes');
    return problems.list;
  }
  const nodeIds = new Map<string, string>();
  const cnetIds = new Map<string, string>();
  const checkNode = (node: unknown, at: string, parentCnetId: string | undefined): void => {
    if (!isObject(node)) return problems.add(at, 'a node must be an object');
    problems.unique(nodeIds, node.categorizationId, `${at}/categorizationId`, 'categorizationId');
    problems.unique(cnetIds, node.cnetID, `${at}/cnetID`, 'cnetID');
    problems.nonEmpty(node.categorization, `${at}/categorization`, 'categorization');
    const cnetId = typeof node.cnetID === 'string' ? node.cnetID : '';
    if (!CNET_ID.test(cnetId)) {
      problems.add(
        `${at}/cnetID`,
        `cnetID must be dotted numbers such as "1.2.3" (received: ${JSON.stringify(node.cnetID)})`,
      );
    } else if (parentCnetId !== undefined && !cnetId.startsWith(`${parentCnetId}.`)) {
      problems.add(`${at}/cnetID`, `cnetID ${cnetId} must extend its parent's cnetID ${parentCnetId}`);
    }
    asList(node.child).forEach((child, i) => checkNode(child, `${at}/child/${i}`, cnetId));
  };
  doc.categorizations.forEach((node, i) => {
    const at = `/categorizations/${i}`;
    if (isObject(node) && !TREE_ENTITY_TYPES.some((type) => type === node.entityType)) {
      problems.add(
        `${at}/entityType`,
        `a top-level node needs entityType EVENEMENT, LOCATIE or ROUTE (received: ${JSON.stringify(node.entityType)})`,
      );
    }
    checkNode(node, at, undefined);
  });
  return problems.list;
}
