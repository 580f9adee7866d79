// The one schema → fast-check arbitrary mapping for the whole spec: every value it generates is
// valid against the schema it came from (JSON Schema 2020-12 as the bundled spec uses it).
//
//   const draft = arbitraryFromSchema(doc, { $ref: '#/components/schemas/EventDraft' }, { mode: 'write', maxItems: 2 });
//
// Covered: object, array, string, integer, number, boolean, null and type lists, enum, const,
// oneOf/anyOf (one branch), allOf (merged into one schema: properties, required, enum
// intersections, the stricter bounds), $ref, the formats date-time, date, uuid, uri and email,
// pattern (fc.stringMatching), min/max length, items and values, uniqueItems, required. A named
// schema (`$ref`) with a `not` is honoured by keeping only the values its validator accepts.
// Only declared properties are generated, so closed schemas (unevaluatedProperties or
// additionalProperties false) stay valid. In `write` mode readOnly and deprecated properties
// are left out; in `read` mode writeOnly ones.

import fc from 'fast-check';
import { createValidatorFactory, resolveLocal, type OpenApiDocument, type ValidatorFactory } from '../../spec/index.ts';

export type JsonSchema = Record<string, unknown>;
export interface SchemaDocument {
  components?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface SchemaConstraints {
  /** `write`: a request body (no readOnly or deprecated properties); `read`: a response (no writeOnly). Default `write`. */
  mode?: 'write' | 'read';
  /** Nesting depth (objects and arrays) below which optional properties and arrays are left empty. Default 5. */
  maxDepth?: number;
  /** Longest generated array, whatever the schema allows (never below its minItems). Default 3. */
  maxItems?: number;
  /** Longest generated free string, whatever the schema allows. Default 24. */
  maxStringLength?: number;
  /** Optional properties: `all` always present, `none` never, `some` (default) each may be absent. */
  optional?: 'all' | 'none' | 'some';
  /** Properties to leave out, by path from the root (`/calendar/patternDates`; array items add no segment). */
  omit?: readonly string[];
  /** Arbitraries to use instead, by the same paths or by `$ref` (`#/components/schemas/LanguageCode`). */
  overrides?: Readonly<Record<string, fc.Arbitrary<unknown>>>;
  /** Numbers: `double` (any double in range, default) or `cents` (two decimals, as prices are written). */
  numbers?: 'double' | 'cents';
}

type Resolved = Required<
  Pick<SchemaConstraints, 'mode' | 'maxDepth' | 'maxItems' | 'maxStringLength' | 'optional' | 'numbers'>
> & {
  omit: ReadonlySet<string>;
  overrides: Readonly<Record<string, fc.Arbitrary<unknown>>>;
  /** Validators of the document's schemas, compiled only if a schema with `not` is met. */
  validatorOf: ValidatorFactory;
};

/** Characters of generated free text: ASCII, markup-ish and accented letters, an emoji; never NUL or control characters. */
const TEXT_CHAR = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789') },
  { weight: 2, arbitrary: fc.constantFrom(' ', '-', '.', ',', "'", '"', '&', '<', '>', '/', ':', ';', '(', ')') },
  { weight: 1, arbitrary: fc.constantFrom('é', 'ü', 'ß', 'ø', 'ç', '€', 'Ĳ', '😀', '中') },
);

/** Follows `$ref`s and merges `allOf` into one schema, so that its properties and bounds are all in one place. */
export function flatten(doc: SchemaDocument, schema: JsonSchema): JsonSchema {
  const { value, siblings } = resolveLocal<JsonSchema>(doc, schema);
  if (!value || typeof value !== 'object') throw new Error(`${String(schema.$ref)} does not name a schema`);
  const current = siblings.length > 0 ? { allOf: [value, ...siblings] } : value;
  if (!Array.isArray(current.allOf)) return current;
  const { allOf, ...own } = current;
  return (allOf as JsonSchema[]).map((s) => flatten(doc, s)).reduce((a, b) => merge(doc, a, b), flatten(doc, own));
}

function intersect<T>(a: readonly T[] | undefined, b: readonly T[] | undefined): T[] | undefined {
  if (!a) return b ? [...b] : undefined;
  if (!b) return [...a];
  const keys = new Set(b.map((v) => JSON.stringify(v)));
  return a.filter((v) => keys.has(JSON.stringify(v)));
}

function typesOf(schema: JsonSchema): string[] | undefined {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? (schema.type as string[]) : undefined;
}

/** The schema both `a` and `b` describe (the subset of allOf this spec uses). */
function merge(doc: SchemaDocument, a: JsonSchema, b: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...a, ...b };
  const types = intersect(typesOf(a), typesOf(b));
  if (types) out.type = types.length === 1 ? types[0] : types;
  const enumValues = intersect(a.enum as unknown[] | undefined, b.enum as unknown[] | undefined);
  if (enumValues) out.enum = enumValues;
  if (a.properties || b.properties) {
    const props: Record<string, JsonSchema> = { ...(a.properties as Record<string, JsonSchema>) };
    for (const [k, v] of Object.entries((b.properties ?? {}) as Record<string, JsonSchema>)) {
      props[k] = props[k] ? { allOf: [props[k]!, v] } : v;
    }
    out.properties = props;
  }
  if (a.required || b.required)
    out.required = [...new Set([...((a.required as string[]) ?? []), ...((b.required as string[]) ?? [])])];
  if (a.items && b.items) out.items = { allOf: [a.items, b.items] };
  for (const k of ['minimum', 'minLength', 'minItems', 'exclusiveMinimum'] as const) {
    if (typeof a[k] === 'number' && typeof b[k] === 'number') out[k] = Math.max(a[k] as number, b[k] as number);
  }
  for (const k of ['maximum', 'maxLength', 'maxItems', 'exclusiveMaximum'] as const) {
    if (typeof a[k] === 'number' && typeof b[k] === 'number') out[k] = Math.min(a[k] as number, b[k] as number);
  }
  if (a.readOnly || b.readOnly) out.readOnly = true;
  if (a.deprecated || b.deprecated) out.deprecated = true;
  void doc;
  return out;
}

function resolveConstraints(doc: SchemaDocument, c: SchemaConstraints): Resolved {
  let factory: ValidatorFactory | undefined;
  return {
    validatorOf: (pointer) => (factory ??= createValidatorFactory(doc as OpenApiDocument))(pointer),
    mode: c.mode ?? 'write',
    maxDepth: c.maxDepth ?? 5,
    maxItems: c.maxItems ?? 3,
    maxStringLength: c.maxStringLength ?? 24,
    optional: c.optional ?? 'some',
    numbers: c.numbers ?? 'double',
    omit: new Set(c.omit ?? []),
    overrides: c.overrides ?? {},
  };
}

export function arbitraryFromSchema(
  doc: SchemaDocument,
  schema: JsonSchema,
  constraints: SchemaConstraints = {},
): fc.Arbitrary<unknown> {
  return build(doc, schema, resolveConstraints(doc, constraints), '', 0);
}

function build(doc: SchemaDocument, raw: JsonSchema, c: Resolved, path: string, depth: number): fc.Arbitrary<unknown> {
  const byPath = c.overrides[path || '/'];
  if (byPath) return byPath;
  if (typeof raw.$ref === 'string' && c.overrides[raw.$ref]) return c.overrides[raw.$ref]!;
  const schema = flatten(doc, raw);
  const values = buildFlat(doc, schema, c, path, depth);
  if (typeof raw.$ref !== 'string' || !('not' in schema)) return values;
  // `not` says what a value must not be; generating that is out of reach, refusing it is not.
  const accepts = c.validatorOf(raw.$ref);
  return values.filter((value) => accepts(value));
}

function buildFlat(
  doc: SchemaDocument,
  schema: JsonSchema,
  c: Resolved,
  path: string,
  depth: number,
): fc.Arbitrary<unknown> {
  const variants = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (variants) {
    const { oneOf: _o, anyOf: _a, discriminator: _d, ...rest } = schema;
    const base = rest.type !== undefined || rest.properties !== undefined ? rest : undefined;
    return fc.oneof(...variants.map((v) => build(doc, base ? { allOf: [base, v] } : v, c, path, depth)));
  }
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const types = typesOf(schema) ?? (schema.properties ? ['object'] : schema.items ? ['array'] : ['string']);
  const arbs = types.map((t) => ofType(doc, schema, t, c, path, depth));
  return arbs.length === 1 ? arbs[0]! : fc.oneof(...arbs);
}

function ofType(
  doc: SchemaDocument,
  schema: JsonSchema,
  type: string,
  c: Resolved,
  path: string,
  depth: number,
): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integerOf(schema);
    case 'number':
      return numberOf(schema, c);
    case 'string':
      return stringOf(schema, c);
    case 'array':
      return arrayOf(doc, schema, c, path, depth);
    case 'object':
      return objectOf(doc, schema, c, path, depth);
    default:
      throw new Error(`unsupported schema type ${type} at ${path || '/'}`);
  }
}

function integerOf(schema: JsonSchema): fc.Arbitrary<number> {
  const min =
    typeof schema.minimum === 'number'
      ? Math.ceil(schema.minimum)
      : typeof schema.exclusiveMinimum === 'number'
        ? Math.floor(schema.exclusiveMinimum) + 1
        : -1_000_000;
  const max =
    typeof schema.maximum === 'number'
      ? Math.floor(schema.maximum)
      : typeof schema.exclusiveMaximum === 'number'
        ? Math.ceil(schema.exclusiveMaximum) - 1
        : 1_000_000;
  return fc.integer({ min, max });
}

function numberOf(schema: JsonSchema, c: Resolved): fc.Arbitrary<number> {
  const min = typeof schema.minimum === 'number' ? schema.minimum : -1_000_000;
  const max = typeof schema.maximum === 'number' ? schema.maximum : 1_000_000;
  if (c.numbers === 'cents')
    return fc.integer({ min: Math.ceil(min * 100), max: Math.floor(max * 100) }).map((n) => n / 100);
  return fc
    .double({
      min,
      max,
      noNaN: true,
      noDefaultInfinity: true,
      minExcluded: typeof schema.exclusiveMinimum === 'number',
      maxExcluded: typeof schema.exclusiveMaximum === 'number',
    })
    .map((n) => (Object.is(n, -0) ? 0 : n));
}

const DATE_MIN = new Date('2000-01-01T00:00:00.000Z');
const DATE_MAX = new Date('2099-12-31T23:59:59.999Z');
const instant = () => fc.date({ min: DATE_MIN, max: DATE_MAX, noInvalidDate: true });

/** `https://<host>.example/<path>`: a URI every validator accepts. */
export function httpsUrl(): fc.Arbitrary<string> {
  const word = fc.string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'),
    minLength: 1,
    maxLength: 10,
  });
  return fc
    .tuple(word, fc.array(word, { maxLength: 3 }))
    .map(([host, segments]) => `https://${host}.example/${segments.join('/')}`);
}

export function emailAddress(): fc.Arbitrary<string> {
  const word = fc.string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'),
    minLength: 1,
    maxLength: 10,
  });
  return fc.tuple(word, word).map(([local, domain]) => `${local}@${domain}.example`);
}

function stringOf(schema: JsonSchema, c: Resolved): fc.Arbitrary<string> {
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Number.MAX_SAFE_INTEGER;
  const fits = (s: string) => s.length >= minLength && s.length <= maxLength;
  switch (schema.format) {
    case 'date-time':
      return instant().map((d) => d.toISOString());
    case 'date':
      return instant().map((d) => d.toISOString().slice(0, 10));
    case 'uuid':
      return fc.uuid();
    case 'uri':
      return httpsUrl().filter(fits);
    case 'email':
      return emailAddress().filter(fits);
  }
  if (typeof schema.pattern === 'string') {
    return fc.stringMatching(new RegExp(schema.pattern as string), { size: 'xsmall' }).filter(fits);
  }
  const max = Math.max(minLength, Math.min(maxLength, c.maxStringLength));
  return fc.string({ unit: TEXT_CHAR, minLength, maxLength: max });
}

function arrayOf(
  doc: SchemaDocument,
  schema: JsonSchema,
  c: Resolved,
  path: string,
  depth: number,
): fc.Arbitrary<unknown[]> {
  const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const cap = depth >= c.maxDepth ? 0 : c.maxItems;
  const maxLength = Math.max(minLength, Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : cap, cap));
  if (Array.isArray(schema.prefixItems)) {
    // A tuple (GeoJSON positions): exactly the prefix, which is all this spec's tuples allow.
    return fc.tuple(...(schema.prefixItems as JsonSchema[]).map((s) => build(doc, s, c, path, depth + 1)));
  }
  const item = build(doc, (schema.items as JsonSchema | undefined) ?? {}, c, path, depth + 1);
  if (schema.uniqueItems) return fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) });
  return fc.array(item, { minLength, maxLength });
}

function objectOf(
  doc: SchemaDocument,
  schema: JsonSchema,
  c: Resolved,
  path: string,
  depth: number,
): fc.Arbitrary<Record<string, unknown>> {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  const requiredKeys: string[] = [];
  for (const [name, raw] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
    const childPath = `${path}/${name}`;
    if (c.omit.has(childPath) || c.omit.has(name)) continue;
    const prop = flatten(doc, raw);
    if (c.mode === 'write' && (prop.readOnly === true || prop.deprecated === true) && !required.has(name)) continue;
    if (c.mode === 'read' && prop.writeOnly === true && !required.has(name)) continue;
    const isRequired = required.has(name);
    if (!isRequired && (c.optional === 'none' || depth >= c.maxDepth) && !c.overrides[childPath]) continue;
    model[name] = build(doc, raw, c, childPath, depth + 1);
    if (isRequired || c.optional === 'all') requiredKeys.push(name);
  }
  return fc.record(model, { requiredKeys });
}
