import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createLayeredValidator } from './contractLayers.ts';
import { parseSpec } from '../../spec/index.ts';
import type { ResponseToValidate } from './responseValidator.ts';

const load = (name: string) => parseSpec(readFileSync(new URL(`../../generated/${name}`, import.meta.url))).document;
const validator = createLayeredValidator(load('openapi.interface.json'), load('openapi.json'));

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const rate = { 'x-ratelimit-limit': '20', 'x-ratelimit-policy': '20;w=1;burst=40' };
const errorBody = (status: number, error: string) => json({ status, error, message: 'no' });
const token = {
  id: '6b2d4f8a-1c3e-4a5b-8d7f-9e0a1b2c3d4e',
  name: 'sync',
  roles: ['ROLE_EXTERNAL_USER'],
  created: '2026-11-20T08:30:00.123Z',
  apiTokenFilter: { userorganisations: ['Amsterdam & Partners'], wfstatus: ['approved'] },
  filter: 'userorganisations: Amsterdam & Partners; wfstatus: approved',
  useOptimizedImages: true,
  hasSigningSecret: false,
};

/** What the verdict says (interface problems) and which decisions the response differs in. */
function judge(res: ResponseToValidate): { problems: string[]; deviation: string[] | undefined } {
  const problems = validator.validate(res).map((p) => p.message);
  return { problems, deviation: problems.length === 0 ? validator.deviation!(res)?.decisions : undefined };
}

describe('createLayeredValidator', () => {
  it('when a response follows our decisions, then it conforms and deviates from nothing', () => {
    expect(
      judge({
        method: 'GET',
        path: '/events/abc',
        status: 401,
        headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer', ...rate },
        body: errorBody(401, 'Unauthorized'),
      }),
    ).toEqual({ problems: [], deviation: undefined });
  });

  it('when a missing token gets 403 without WWW-Authenticate, then it conforms and deviates from DEC-ERR-002 only', () => {
    expect(
      judge({
        method: 'GET',
        path: '/events',
        status: 403,
        headers: { 'content-type': 'application/json', ...rate },
        body: errorBody(403, 'Forbidden'),
      }),
    ).toEqual({ problems: [], deviation: ['DEC-ERR-002'] });
  });

  it('when an error body has another JSON shape, then it conforms and deviates from DEC-ERR-001', () => {
    expect(
      judge({
        method: 'GET',
        path: '/events/abc',
        status: 404,
        headers: { 'content-type': 'application/json', ...rate },
        body: json({ code: 'E404' }),
      }),
    ).toEqual({ problems: [], deviation: ['DEC-ERR-001'] });
  });

  it('when an error body is plain text, then it does not conform: responses are JSON (API-001)', () => {
    const { problems } = judge({
      method: 'GET',
      path: '/events/abc',
      status: 404,
      headers: { 'content-type': 'text/plain', ...rate },
      body: Buffer.from('not found'),
    });
    expect(problems).toEqual([expect.stringContaining('Content-Type text/plain is not documented')]);
  });

  it('when a creation answers 201 with an empty body and a Location, then it deviates from DEC-ITEM-002', () => {
    expect(
      judge({
        method: 'POST',
        path: '/events',
        status: 201,
        headers: { location: 'https://t.example/api/events/1', etag: '"t1"' },
        body: Buffer.alloc(0),
      }),
    ).toEqual({ problems: [], deviation: ['DEC-ITEM-002'] });
  });

  it('when userorganisations answers an object keyed by organisation, then it deviates from DEC-DICT-002', () => {
    expect(
      judge({
        method: 'GET',
        path: '/dictionary/userorganisations',
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: json({ 'Amsterdam & Partners': { accountId: 'amsterdam', ontology: {} } }),
      }),
    ).toEqual({ problems: [], deviation: ['DEC-DICT-002'] });
  });

  it('when GET /dictionary answers another JSON body, then it deviates from DEC-DICT-001', () => {
    expect(
      judge({
        method: 'GET',
        path: '/dictionary',
        status: 200,
        headers: { 'content-type': 'application/json', ...rate },
        body: json(['categorizationOntology', 'propertiesOntology', 'userorganisations']),
      }),
    ).toEqual({ problems: [], deviation: ['DEC-DICT-001'] });
  });

  it('when a listed item has a title longer than our limit, then it deviates from DEC-ITEM-019 only', () => {
    const event = {
      id: '3f1b6d2e-8c4a-4e7b-9f10-2a5c7d9e1b34',
      trcid: 'trc-1',
      entitytype: 'EVENEMENT',
      creationdate: '2026-11-20T08:30:00.123Z',
      trcItemDetails: [{ lang: 'nl', title: 'x'.repeat(5000) }],
    };
    expect(
      judge({
        method: 'GET',
        path: '/events',
        status: 200,
        headers: { 'content-type': 'application/json', ...rate },
        body: json([event]),
      }),
    ).toEqual({ problems: [], deviation: ['DEC-ITEM-019'] });
  });

  it("when a listed event has our former calendarType, then it deviates from the calendar type's decisions, not from every decision relaxed in an item", () => {
    const event = {
      id: '3f1b6d2e-8c4a-4e7b-9f10-2a5c7d9e1b34',
      trcid: 'trc-1',
      entitytype: 'EVENEMENT',
      creationdate: '2026-11-20T08:30:00.123Z',
      calendar: { calendarType: 'ALWAYS' },
    };
    const { problems, deviation } = judge({
      method: 'GET',
      path: '/events',
      status: 200,
      headers: { 'content-type': 'application/json', ...rate },
      body: json([event]),
    });
    expect(problems).toEqual([]);
    expect(deviation).toEqual(expect.arrayContaining(['DEC-ITEM-011', 'DEC-ITEM-025']));
    expect(deviation).not.toContain('DEC-ITEM-106');
    expect(deviation).not.toContain('DEC-ITEM-105');
  });

  it('when a token answer names its id otherwise, then it deviates from the token decisions', () => {
    const { id, ...rest } = token;
    const { problems, deviation } = judge({
      method: 'PUT',
      path: '/accounts/amsterdam/tokens/abc',
      status: 200,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
      body: json({ ...rest, tokenId: id }),
    });
    expect(problems).toEqual([]);
    expect(deviation).toContain('DEC-MISC-002');
  });

  it('when a list answers an object, then it does not conform: a MUST of the interface (LIST-001)', () => {
    const { problems } = judge({
      method: 'GET',
      path: '/events',
      status: 200,
      headers: { 'content-type': 'application/json', ...rate },
      body: json({ items: [] }),
    });
    expect(problems).toEqual(['(root) must be array']);
  });
});

describe('decidedAt', () => {
  const decided = (pointer: string, schema = '#/components/schemas/EventDraft') =>
    validator.decidedAt!(schema, pointer);

  it('when a field is one the interface does not name, then it belongs to the decision that shapes its object', () => {
    expect(decided('/files/0/title')).toEqual(['DEC-ITEM-162']);
    expect(decided('/files/0/title/label')).toEqual(['DEC-ITEM-162']);
    expect(decided('/contactinfo/mail')).toEqual(expect.arrayContaining(['DEC-ITEM-160']));
    expect(decided('/location/address/gisCoordinates/0/label')).toEqual(['DEC-ITEM-163']);
  });

  it('when a field is kept in the interface layer only to check its shape (x-decided), then it is still ours', () => {
    expect(decided('/location/address/gisCoordinates')).toEqual(['DEC-ITEM-163']);
    expect(decided('/location/address/gisCoordinates/0/xcoordinate')).toEqual(['DEC-ITEM-163']);
  });

  it('when a value is one of our enum whose values the interface leaves open, then it belongs to that decision', () => {
    expect(decided('/calendar/calendarType')).toEqual(expect.arrayContaining(['DEC-ITEM-011']));
    expect(decided('/files/0/mediatype')).toEqual(['DEC-ITEM-162']);
  });

  it("when a route's waypoints are lost, then that is the interface's (ITEM-027); their points' shape is ours", () => {
    expect(decided('/routeInfo/routeCoordinates', '#/components/schemas/RouteDraft')).toEqual([]);
    expect(decided('/routeInfo/routeCoordinates/0/lat', '#/components/schemas/RouteDraft')).toEqual(['DEC-ITEM-016']);
    expect(decided('/routeInfo/pois', '#/components/schemas/RouteDraft')).toEqual(['DEC-ITEM-016']);
  });

  it('when the interface names the field, then no decision covers it: a relaxed length limit is not a free value', () => {
    expect(decided('/files/0/hlink')).toEqual([]);
    expect(decided('/trcItemDetails/0/title')).toEqual([]);
    expect(decided('/location/address/city')).toEqual([]);
    expect(decided('/wfstatus', '#/components/schemas/Event')).toEqual([]);
  });
});
