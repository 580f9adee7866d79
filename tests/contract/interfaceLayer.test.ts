// The two layers of the contract: generated/openapi.json (the interface and our decisions) and
// generated/openapi.interface.json (decisions relaxed by `x-interface`, spec/EXTENSIONS.md). Both
// are valid OpenAPI 3.1, every relaxation names existing DECISION ids, and each shows in the
// interface layer.

import YAML from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleSource } from '../../scripts/generate.ts';
import {
  interfaceLayer,
  listRelaxations,
  mergePatch,
  type InterfaceRelaxation,
} from '../../scripts/lib/interfaceLayer.ts';
import { bins, runNodeScript } from '../../scripts/lib/run.ts';
import { loadSpec as loadBundle, SPEC_FILES } from '../../spec/index.ts';
import { loadDecisionIds, loadRequirements, loadSpec } from './spec.ts';

const full = loadSpec();
const layer = loadBundle(SPEC_FILES.interface).document;
// The published files carry no x-interface (scripts/generate.ts); the relaxations are read from
// the bundle of spec/ itself.
let relaxations: InterfaceRelaxation[] = [];
beforeAll(async () => {
  relaxations = listRelaxations(YAML.parse(await bundleSource()) as Record<string, unknown>);
}, 60_000);

describe('the interface-only layer', () => {
  it('when both layers are linted with the OpenAPI 3.1 structure rules, then both are valid', async () => {
    const run = await runNodeScript(bins.redocly, [
      'lint',
      'generated/openapi.json',
      'generated/openapi.interface.json',
      '--config',
      'tests/contract/redocly.layers.yaml',
      '--format=stylish',
    ]);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
  }, 120_000);

  it('when the spec is read, then every x-interface names DECISION ids of the catalogue and DECISIONS.md and relaxes something', () => {
    const decisions = new Set(loadDecisionIds());
    const levels = new Map(loadRequirements().map((r) => [r.id, r.level]));
    expect(relaxations.length).toBeGreaterThan(0);
    for (const r of relaxations) {
      expect(r.decisions.length, r.pointer).toBeGreaterThan(0);
      for (const id of r.decisions) {
        expect(decisions.has(id), `${r.pointer}: ${id} is not in DECISIONS.md`).toBe(true);
        expect(levels.get(id), `${r.pointer}: ${id} in requirements.yaml`).toBe('DECISION');
      }
      expect(Boolean(r.patch || r.statuses || r.responsePatch || r.dropKeywords), `${r.pointer} relaxes nothing`).toBe(
        true,
      );
    }
  });

  it('when the layer is generated, then it keeps no x-interface and marks what each relaxation changed', () => {
    const text = JSON.stringify(layer);
    expect(text).not.toContain('"x-interface"');
    const marked = new Set([...text.matchAll(/"(DEC-[A-Z]+-\d{3})"/g)].map((m) => m[1]));
    for (const r of relaxations) for (const id of r.decisions) expect(marked.has(id), `${r.pointer}: ${id}`).toBe(true);
    expect(layer.paths['/events'].post.responses['201']['x-relaxed']).toEqual(['DEC-ITEM-002']);
    expect(layer.paths['/events'].get.responses['x-relaxed-statuses']).toEqual({ '403': ['DEC-ERR-002'] });
    // The full layer is the bundle as it was, without the relaxations themselves.
    expect(full.paths['/events'].post.responses['201'].headers.Location.required).toBe(true);
    expect(JSON.stringify(full)).not.toContain('"x-interface"');
  });
});

describe('interfaceLayer()', () => {
  const doc = {
    openapi: '3.1.0',
    paths: {
      '/things': {
        get: {
          responses: {
            '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array' } } } },
            '401': { $ref: '#/components/responses/Unauthorized' },
          },
        },
      },
    },
    components: {
      schemas: {
        Error: {
          type: 'object',
          'x-interface': {
            decisions: ['DEC-ERR-001'],
            responsePatch: { content: { 'application/json': null, '*/*': {} } },
          },
        },
      },
      responses: {
        Unauthorized: {
          description: 'no',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          'x-interface': { decisions: ['DEC-ERR-002'], statuses: ['403'] },
        },
      },
    },
  };

  it('when a document has relaxations, then the layer applies patch, statuses and responsePatch and leaves the input alone', () => {
    const before = JSON.stringify(doc);
    const out = interfaceLayer(doc) as typeof doc & {
      paths: { '/things': { get: { responses: Record<string, unknown> } } };
    };
    expect(JSON.stringify(doc)).toBe(before);
    expect(out.paths['/things'].get.responses['403']).toEqual({ $ref: '#/components/responses/Unauthorized' });
    expect(out.paths['/things'].get.responses['x-relaxed-statuses']).toEqual({ '403': ['DEC-ERR-002'] });
    expect(out.components.responses.Unauthorized).toEqual({
      description: 'no',
      content: { '*/*': {} },
      'x-relaxed': ['DEC-ERR-001'],
    });
  });

  it('when a schema drops keywords, then they go from every schema it reaches, and a property named like one stays', () => {
    const out = interfaceLayer({
      openapi: '3.1.0',
      paths: {},
      components: {
        schemas: {
          Item: {
            type: 'object',
            properties: { maxLength: { type: 'string', maxLength: 3 }, tags: { $ref: '#/components/schemas/Tags' } },
            'x-interface': { decisions: ['DEC-ITEM-019'], dropKeywords: ['maxLength', 'maxItems'] },
          },
          Tags: { type: 'array', maxItems: 2, items: { type: 'string', minLength: 1 } },
        },
      },
    }) as { components: { schemas: Record<string, Record<string, unknown>> } };
    expect(out.components.schemas.Item!.properties).toEqual({
      maxLength: { type: 'string', 'x-relaxed': ['DEC-ITEM-019'] },
      tags: { $ref: '#/components/schemas/Tags' },
    });
    expect(out.components.schemas.Tags).toEqual({
      type: 'array',
      items: { type: 'string', minLength: 1 },
      'x-relaxed': ['DEC-ITEM-019'],
    });
  });

  it('when a patch removes the items of an array, then the layer says items: {} (any items), not nothing', () => {
    const out = interfaceLayer({
      openapi: '3.1.0',
      components: {
        schemas: {
          Texts: {
            type: 'object',
            properties: {
              texts: {
                type: 'array',
                items: { $ref: '#/components/schemas/Text' },
                'x-interface': { decisions: ['DEC-ITEM-103'], patch: { items: null } },
              },
            },
          },
        },
      },
    }) as any;
    expect(out.components.schemas.Texts.properties.texts).toEqual({
      type: 'array',
      items: {},
      'x-relaxed': ['DEC-ITEM-103'],
    });
  });

  it('when a merge patch is applied, then it follows RFC 7396 (null removes, objects merge, the rest replaces)', () => {
    expect(mergePatch({ a: 'b', c: { d: 'e', f: 'g' } }, { a: 'z', c: { f: null } })).toEqual({
      a: 'z',
      c: { d: 'e' },
    });
    expect(mergePatch({ a: [1, 2] }, { a: [3] })).toEqual({ a: [3] });
    expect(mergePatch(undefined, { a: { b: null } })).toEqual({ a: {} });
  });
});
