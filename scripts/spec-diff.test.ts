import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import YAML from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { breakingChanges, formatReport, smartDiff, SpecDiffError } from './spec-diff.ts';

const exec = promisify(execFile);
const fixtures = path.join(import.meta.dirname, 'fixtures/spec-diff');
const base = path.join(fixtures, 'base.yaml');
const head = path.join(fixtures, 'head.yaml');
const repo = path.resolve(import.meta.dirname, '..');

type Doc = Record<string, any>;
const classification = YAML.parse(fs.readFileSync(path.join(fixtures, 'classification.yaml'), 'utf8')) as Doc;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-spec-diff-test-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

let edits = 0;
/** The classification fixture with one edit, compared with the fixture as it is. */
async function changesAfter(edit: (doc: Doc) => void) {
  const doc = structuredClone(classification);
  edit(doc);
  const file = path.join(work, `head-${++edits}.yaml`);
  fs.writeFileSync(file, YAML.stringify(doc));
  return breakingChanges(path.join(fixtures, 'classification.yaml'), file);
}

const schemas = (doc: Doc) => doc.components.schemas;
const listEvents = (doc: Doc) => doc.paths['/events'].get;

// Each edit with the place it is reported at. EventDraft is only a request body, EventBase only
// in responses (through Event), Error only in responses (through components/responses).
const BREAKING: [string, (doc: Doc) => void, string][] = [
  ['an operation is removed', (d) => delete d.paths['/events/{id}'].delete, '#/paths/~1events~1{id}/delete'],
  ['a path is removed', (d) => delete d.paths['/events/{id}'], '#/paths/~1events~1{id}'],
  [
    'a required query parameter is added',
    (d) => listEvents(d).parameters.push({ name: 'lang', in: 'query', required: true, schema: { type: 'string' } }),
    '#/paths/~1events/get/parameters/1',
  ],
  [
    'a query maximum is tightened',
    (d) => (listEvents(d).parameters[0].schema.maximum = 1000),
    '#/paths/~1events/get/parameters/0/schema/maximum',
  ],
  [
    'a request property becomes required',
    (d) => (schemas(d).EventDraft.required = ['title']),
    '#/components/schemas/EventDraft/required',
  ],
  [
    'a request maxLength is tightened',
    (d) => (schemas(d).EventDraft.properties.title.maxLength = 100),
    '#/components/schemas/EventDraft/properties/title/maxLength',
  ],
  [
    'a request enum value is removed',
    (d) => schemas(d).EventDraft.properties.wfstatus.enum.pop(),
    '#/components/schemas/EventDraft/properties/wfstatus/enum',
  ],
  [
    'a response property is removed',
    (d) => delete schemas(d).EventBase.properties.title,
    '#/components/schemas/EventBase/properties/title',
  ],
  [
    'a property of a shared error body is removed',
    (d) => delete schemas(d).Error.properties.message,
    '#/components/schemas/Error/properties/message',
  ],
  [
    'a response property is no longer required',
    (d) => (schemas(d).Error.required = ['status', 'error']),
    '#/components/schemas/Error/required',
  ],
  [
    'a response maxLength is loosened',
    (d) => (schemas(d).EventBase.properties.title.maxLength = 1000),
    '#/components/schemas/EventBase/properties/title/maxLength',
  ],
  [
    'a response enum value is added',
    (d) => schemas(d).EventBase.properties.wfstatus.enum.push('deleted'),
    '#/components/schemas/EventBase/properties/wfstatus/enum',
  ],
  [
    'a property type changes',
    (d) => (schemas(d).EventBase.properties.trcid.type = 'integer'),
    '#/components/schemas/EventBase/properties/trcid/type',
  ],
  [
    'a success response is removed',
    (d) => delete d.paths['/events/{id}'].get.responses['200'],
    '#/paths/~1events~1{id}/get/responses/200',
  ],
];

const NON_BREAKING: [string, (doc: Doc) => void][] = [
  [
    'an operation is added',
    (d) => (d.paths['/events/{id}'].put = { operationId: 'updateEvent', responses: { '200': { description: 'OK' } } }),
  ],
  [
    'an optional query parameter is added',
    (d) => listEvents(d).parameters.push({ name: 'lang', in: 'query', schema: { type: 'string' } }),
  ],
  ['an optional request property is added', (d) => (schemas(d).EventDraft.properties.slug = { type: 'string' })],
  ['a response property is added', (d) => (schemas(d).EventBase.properties.slug = { type: 'string' })],
  ['a property of a shared error body is added', (d) => (schemas(d).Error.properties.detail = { type: 'string' })],
  ['a response property becomes required', (d) => schemas(d).Error.required.push('detail')],
  ['a field of an allOf branch becomes required', (d) => schemas(d).Event.allOf[1].required.push('title')],
  ['a response maxLength is tightened', (d) => (schemas(d).EventBase.properties.title.maxLength = 100)],
  ['a response enum value is removed', (d) => schemas(d).EventBase.properties.wfstatus.enum.pop()],
  ['a request maxLength is loosened', (d) => (schemas(d).EventDraft.properties.title.maxLength = 1000)],
  ['a query maximum is loosened', (d) => (listEvents(d).parameters[0].schema.maximum = 5000)],
  ['a request enum value is added', (d) => schemas(d).EventDraft.properties.wfstatus.enum.push('deleted')],
  ['a description changes', (d) => (listEvents(d).description = 'Lists events.')],
];

describe('npm run spec:diff classification', () => {
  it.each(BREAKING)('when %s, then it is one breaking change at its place', async (_name, edit, pointer) => {
    const changes = await changesAfter(edit);
    expect(changes.map((c) => c.pointer)).toEqual([pointer]);
  });

  it.each(NON_BREAKING)('when %s, then nothing is breaking', async (_name, edit) => {
    expect(await changesAfter(edit)).toEqual([]);
  });

  it('when an operation is removed, then both differs flag it and the report names it once', async () => {
    const changes = await changesAfter((d) => delete d.paths['/events/{id}'].delete);
    expect(changes[0]!.findings.map((f) => `${f.tool} ${f.rule}`).sort()).toEqual([
      'api-smart-diff remove',
      'redocly diff operation-removed',
    ]);
    const report = formatReport(changes, 'a', 'b');
    expect(report.match(/DELETE \/events\/\{id\}` was removed/g)).toHaveLength(1);
    expect(report).toMatch(/^1 breaking change\(s\)/);
  });
});

describe('api-smart-diff crashes', () => {
  // The shape that crashed it: an allOf branch requiring a field that its sibling defines.
  const edited = () => {
    const doc = structuredClone(classification);
    schemas(doc).Event.allOf[1].required.push('title');
    return doc;
  };

  it('when a classification rule crashes, then the comparison fails naming the node', () => {
    const error = (() => {
      try {
        smartDiff(classification, edited());
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(SpecDiffError);
    expect((error as Error).message).toContain('components.schemas.Event.allOf.1.required');
    expect((error as Error).message).toContain("Cannot read properties of undefined (reading 'default')");
  });
});

describe('npm run spec:diff command', () => {
  it('when a path is removed, a maximum tightened and a property made required, then each is named once', async () => {
    const changes = await breakingChanges(base, head);
    expect(changes.map((c) => c.pointer)).toEqual([
      '#/components/schemas/Item/required',
      '#/paths/~1events/get/parameters/0/schema/maximum',
      '#/paths/~1venues',
    ]);
    const tools = changes.map((c) => [...new Set(c.findings.map((f) => f.tool))].sort().join(' + '));
    expect(tools).toEqual([
      'api-smart-diff + redocly diff',
      'api-smart-diff + redocly diff',
      'api-smart-diff + redocly diff',
    ]);
  });

  it('when the two sides are identical, then no change is breaking', async () => {
    expect(await breakingChanges(base, base)).toEqual([]);
  });

  it('when run from the command line on the fixture pair, then it prints each change and exits 1', async () => {
    const error = await exec(process.execPath, ['scripts/spec-diff.ts', '--base', base, '--head', head], {
      cwd: repo,
    }).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(error?.code).toBe(1);
    expect(error?.stderr).toContain('3 breaking change(s)');
    expect(error?.stderr).toContain('Path `/venues` was removed.');
    expect(error?.stderr).toContain("Upper bound changed from '<= 2000' to '<= 1000'.");
    expect(error?.stderr).toContain('[required-properties-added]');
  });

  it('when run on identical files, then it exits 0', async () => {
    const { stdout } = await exec(process.execPath, ['scripts/spec-diff.ts', '--base', base, '--head', base], {
      cwd: repo,
    });
    expect(stdout).toContain('No breaking changes');
  });

  it('when the base cannot be read, then it exits 2 and says why', async () => {
    const error = await exec(process.execPath, ['scripts/spec-diff.ts', 'no-such-ref-anywhere'], { cwd: repo }).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(error?.code).toBe(2);
    expect(error?.stderr).toContain('no-such-ref-anywhere');
  });
});
