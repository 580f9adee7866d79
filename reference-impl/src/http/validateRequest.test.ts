import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { listenLocally } from '../../test/support/listenLocally.ts';
import { errorHandler } from './errorHandler.ts';
import { createRequestValidator, validated } from './validateRequest.ts';

// The validator against the real bundled spec, mounted on a bare app that echoes the result.

const ENFORCED_FROM = new Date('2026-10-31T23:00:00.000Z');
let now = ENFORCED_FROM.getTime();
let baseUrl = '';
let close: () => Promise<void> = async () => {};

beforeAll(async () => {
  const validate = createRequestValidator();
  const app = express();
  app.use(express.json());
  const echo =
    (operationId: 'listEvents' | 'createLocation'): express.RequestHandler =>
    (_req, res) => {
      res.json(validated(res, operationId));
    };
  app.get(
    '/events',
    validate('listEvents', { sizeCap: { max: 2000, enforcedFrom: ENFORCED_FROM, now: () => now } }),
    echo('listEvents'),
  );
  app.post('/locations', validate('createLocation'), echo('createLocation'));
  app.use(errorHandler({ logger: createLogger({ level: 'silent' }) }));
  ({ origin: baseUrl, close } = await listenLocally(app));
});
afterAll(() => close());

async function get(query: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${baseUrl}/events?${query}`);
  return { status: response.status, body: await response.json() };
}

describe('validateRequest on GET /events', () => {
  it('when size is above 2000 on or after the enforcement moment, then 400 with exactly the interface body [ERR-001, LIMIT-003]', async () => {
    now = ENFORCED_FROM.getTime();
    const { status, body } = await get('size=2001');
    expect(status).toBe(400);
    expect(body).toEqual({ status: 400, error: 'Bad Request', message: 'size must not exceed 2000 (requested: 2001)' });
  });

  it('when size is above 2000 before the enforcement moment, then it is capped at 2000 silently [LIMIT-002]', async () => {
    now = ENFORCED_FROM.getTime() - 1;
    const { status, body } = await get('size=5000');
    expect(status).toBe(200);
    expect(body.query.size).toBe(2000);
  });

  it('when query values are valid, then they arrive typed: integers, booleans, comma lists [FILTER-002]', async () => {
    const { status, body } = await get('size=10&page=2&published=true&wfstatus=approved,archived&sortOrder=asc');
    expect(status).toBe(200);
    expect(body.query).toEqual({
      size: 10,
      page: 2,
      published: true,
      wfstatus: ['approved', 'archived'],
      sortOrder: 'asc',
    });
  });

  it('when sortField is unknown, then 400 naming the allowed values and the received one [DEC-LIST-003]', async () => {
    const { status, body } = await get('sortField=titel');
    expect(status).toBe(400);
    expect(body.message).toMatch(/^sortField must be one of lastupdated, creationdate, title.*\(received: titel\)$/);
    expect(body.details).toEqual([{ pointer: 'query/sortField', message: body.message }]);
  });

  it('when a query parameter is unknown, then 400 naming it [DEC-LIST-008]', async () => {
    const { status, body } = await get('sortfield=title');
    expect(status).toBe(400);
    expect(body.message).toContain('unknown query parameter sortfield');
  });

  it('when values have the wrong type, then 400 for each, never 500', async () => {
    for (const query of [
      'size=ten',
      'size=0',
      'page=-1',
      'published=maybe',
      'wfstatus=approved,published',
      'size=1&size=2',
    ]) {
      const { status, body } = await get(query);
      expect(status, query).toBe(400);
      expect(body.status).toBe(400);
      expect(body.error).toBe('Bad Request');
    }
  });
});

describe('validateRequest on POST /locations', () => {
  async function post(body: string, contentType = 'application/json'): Promise<{ status: number; body: any }> {
    const response = await fetch(`${baseUrl}/locations`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body,
    });
    return { status: response.status, body: await response.json() };
  }

  it('when a location carries event-only fields, then 400 naming the field [DEC-ITEM-015, ITEM-024]', async () => {
    const { status, body } = await post(JSON.stringify({ priceElements: [] }));
    expect(status).toBe(400);
    expect(body.message).toBe('Request body is invalid: unknown field priceElements');
    expect(body.details).toEqual([{ pointer: '/priceElements', message: 'unknown field priceElements' }]);
  });

  it('when the body is not JSON, then 400 [DEC-ERR-003]', async () => {
    const { status, body } = await post('{"trcid":');
    expect(status).toBe(400);
    expect(body.message).toMatch(/not valid JSON/);
  });

  it('when a field has the wrong type, then 400 with its JSON pointer', async () => {
    const { status, body } = await post(JSON.stringify({ trcItemDetails: [{ lang: 'nl', title: 42 }] }));
    expect(status).toBe(400);
    expect(body.details).toContainEqual({ pointer: '/trcItemDetails/0/title', message: 'must be string' });
  });

  it('when a required field is missing, then its pointer and the wording of the spec examples [DEC-ERR-001]', async () => {
    const { status, body } = await post(JSON.stringify({ trcItemDetails: [{ title: 'Zonder taal' }] }));
    expect(status).toBe(400);
    expect(body.details).toContainEqual({ pointer: '/trcItemDetails/0/lang', message: 'is required' });
    expect(body.message).toContain('/trcItemDetails/0/lang is required');
  });

  it('when read-only fields are sent, then they are accepted (ignored later) [DEC-ITEM-005]', async () => {
    const { status } = await post(
      JSON.stringify({
        id: '3f1b6d2e-8c4a-4e7b-9f10-2a5c7d9e1b34',
        published: true,
        trcItemDetails: [{ lang: 'nl', title: 'Rijksmuseum' }],
      }),
    );
    expect(status).toBe(200);
  });
});
