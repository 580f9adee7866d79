import { describe, expect, it } from 'vitest';
import {
  createAjv,
  createValidatorFactory,
  getAt,
  indexOperations,
  joinPointer,
  loadSpec,
  operationParameters,
  parseSpec,
  refTarget,
  resolveLocal,
  responseSchemaPointer,
  SPEC_FILES,
  SpecError,
} from '../index.ts';

const doc = {
  openapi: '3.1.0',
  paths: {
    '/things/{id}': {
      parameters: [{ $ref: '#/components/parameters/Id' }, { name: 'lang', in: 'query', schema: { type: 'string' } }],
      get: {
        operationId: 'getThing',
        parameters: [{ name: 'lang', in: 'query', schema: { type: 'string', enum: ['nl', 'en'] } }],
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
          },
          '404': { $ref: '#/components/responses/NotFound' },
          '204': { description: 'no body' },
        },
      },
    },
  },
  components: {
    parameters: { Id: { name: 'id', in: 'path', required: true, schema: { type: 'integer' } } },
    responses: {
      NotFound: { $ref: '#/components/responses/Problem' },
      Problem: { description: 'problem', content: { 'application/json': { schema: { type: 'object' } } } },
    },
    schemas: {
      Thing: {
        type: 'object',
        required: ['id', 'at'],
        properties: { id: { type: 'integer' }, at: { type: 'string', format: 'date-time' } },
        example: { id: 1, at: '2025-01-01T00:00:00Z' },
      },
      'a/b~c': { const: 'odd name' },
      Loop: { $ref: '#/components/schemas/Loop' },
    },
  },
};

describe('JSON pointers and $refs', () => {
  it('when a token holds / or ~, then it is escaped on the way in and read back', () => {
    const pointer = joinPointer('/components/schemas', 'a/b~c');
    expect(pointer).toBe('/components/schemas/a~1b~0c');
    expect(getAt(doc, pointer)).toEqual({ const: 'odd name' });
    expect(getAt(doc, `#${pointer}`)).toEqual({ const: 'odd name' });
    expect(getAt(doc, '/components/schemas/Nothing/deeper')).toBeUndefined();
  });

  it('when a $ref fragment is percent-encoded, then it names the same node', () => {
    expect(resolveLocal(doc, { $ref: '#/paths/~1things~1%7Bid%7D' }).pointer).toBe('/paths/~1things~1{id}');
  });

  it('when $refs chain, then the target and its pointer are returned', () => {
    expect(resolveLocal(doc, { $ref: '#/components/responses/NotFound' }, '/x')).toEqual({
      value: doc.components.responses.Problem,
      pointer: '/components/responses/Problem',
      siblings: [],
    });
    expect(resolveLocal(doc, { a: 1 }, '/here')).toEqual({ value: { a: 1 }, pointer: '/here', siblings: [] });
  });

  it('when a $ref has siblings at several hops, then each hop keeps its own, outermost first', () => {
    const chained = {
      ...doc,
      components: {
        ...doc.components,
        schemas: { ...doc.components.schemas, Named: { $ref: '#/components/schemas/Thing', description: 'inner' } },
      },
    };
    const resolved = resolveLocal(chained, { $ref: '#/components/schemas/Named', maxLength: 3 });
    expect(resolved.value).toBe(doc.components.schemas.Thing);
    expect(resolved.siblings).toEqual([{ maxLength: 3 }, { description: 'inner' }]);
  });

  it('when a walk hops one $ref, then it gets the target, nothing without a $ref, and an error for a dangling one', () => {
    expect(refTarget(doc, { $ref: '#/components/responses/NotFound' })).toBe(doc.components.responses.NotFound);
    expect(refTarget(doc, { type: 'string' })).toBeUndefined();
    expect(refTarget(doc, 'text')).toBeUndefined();
    expect(() => refTarget(doc, { $ref: '#/components/schemas/Nothing' })).toThrow(/unresolvable/);
  });

  it('when a $ref is remote, unresolvable or a cycle, then it throws', () => {
    expect(() => resolveLocal(doc, { $ref: 'other.json#/x' })).toThrow(/only local/);
    expect(() => resolveLocal(doc, { $ref: '#/components/schemas/Nothing' })).toThrow(/unresolvable/);
    expect(() => resolveLocal(doc, { $ref: '#/components/schemas/Loop' })).toThrow(/chain/);
  });
});

describe('operation index', () => {
  const op = indexOperations(doc).get('getThing')!;

  it('when indexed, then an operation has its method, path and pointer', () => {
    expect(op).toMatchObject({ method: 'get', path: '/things/{id}', pointer: '/paths/~1things~1{id}/get' });
  });

  it("when the operation repeats a path item's parameter, then the operation's wins", () => {
    const parameters = operationParameters(doc, op);
    expect(parameters.map((p) => [p.parameter.name, p.pointer])).toEqual([
      ['id', '/components/parameters/Id'],
      ['lang', '/paths/~1things~1{id}/get/parameters/0'],
    ]);
  });

  it('when a response is inline, $ref-chained or bodiless, then its schema pointer says so', () => {
    expect(responseSchemaPointer(doc, op, 200)).toBe(
      '/paths/~1things~1{id}/get/responses/200/content/application~1json/schema',
    );
    expect(responseSchemaPointer(doc, op, '404')).toBe(
      '/components/responses/Problem/content/application~1json/schema',
    );
    expect(responseSchemaPointer(doc, op, 204)).toBeUndefined();
    expect(responseSchemaPointer(doc, op, 500)).toBeUndefined();
  });
});

describe('validators', () => {
  it('when a schema is asked for twice, then it is compiled once', () => {
    const schemaAt = createValidatorFactory(doc);
    expect(schemaAt('/components/schemas/Thing')).toBe(schemaAt('#/components/schemas/Thing'));
  });

  it('when a value breaks a format or a referenced schema, then it is rejected with every error', () => {
    const schemaAt = createValidatorFactory(doc);
    const validate = schemaAt(responseSchemaPointer(doc, indexOperations(doc).get('getThing')!, 200)!);
    expect(validate({ id: 1, at: '2025-01-01T00:00:00Z' })).toBe(true);
    expect(validate({ id: 'one', at: 'yesterday' })).toBe(false);
    expect(validate.errors?.map((e) => e.keyword).sort()).toEqual(['format', 'type']);
  });

  it('when coerceTypes is asked for, then strings become numbers; by default they do not', () => {
    const asIs = createValidatorFactory(doc)('/components/parameters/Id/schema');
    const coercing = createValidatorFactory(doc, { coerceTypes: true })('/components/parameters/Id/schema');
    expect(asIs('7')).toBe(false);
    expect(coercing('7')).toBe(true);
  });

  it('when a schema outside a document is compiled, then the same set-up checks it', () => {
    const validate = createAjv({ allowUnionTypes: true }).compile({ type: ['string', 'array'], format: 'email' });
    expect(validate('a@example.org')).toBe(true);
    expect(validate('not mail')).toBe(false);
  });
});

describe('loading', () => {
  it('when the bundled spec and its interface layer are loaded, then each has its SHA-256 and operations', () => {
    for (const file of [SPEC_FILES.json, SPEC_FILES.interface]) {
      const spec = loadSpec(file);
      expect(spec.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(indexOperations(spec.document).get('listEvents')?.path).toBe('/events');
    }
  });

  it('when a file is missing, not JSON or not OpenAPI, then a SpecError says which', () => {
    expect(() => loadSpec('/nonexistent/openapi.json')).toThrow(SpecError);
    expect(() => parseSpec('{', 'x.json')).toThrow(/x.json is not valid JSON/);
    expect(() => parseSpec('{"openapi":"2.0"}', 'x.json')).toThrow(/not an OpenAPI 3.0\/3.1 document/);
  });
});
