import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { listenLocally } from '../../test/support/listenLocally.ts';
import { rawClient } from '../../test/support/security/rawHttp.ts';
import { errorHandler, notFound, rejectUnknownRoutes } from './errorHandler.ts';
import { HttpError } from './HttpError.ts';
import { loadOpenApiDocument } from './openapiDocument.ts';
import { RATE_LIMIT_HEADERS } from '../ratelimit/middleware.ts';

// The answers to requests that are no operation of the spec (DEC-ERR-005), on a bare app over the
// real bundled spec: the guard sits before the JSON body parser, as in createApp.

let baseUrl = '';
let close: () => Promise<void> = async () => {};

beforeAll(async () => {
  const doc = loadOpenApiDocument();
  const app = express();
  app.use(rejectUnknownRoutes({ doc, basePath: '/api', rateLimitHeaders: RATE_LIMIT_HEADERS }));
  app.use(express.json({ limit: '1kb' }));
  const echo: express.RequestHandler = (req, res) => {
    res.json({ reached: `${req.method} ${req.path}` });
  };
  app.get('/api/events', echo);
  app.post('/api/events', echo);
  app.get('/api/events/:id', echo);
  app.put('/api/events/:id', echo);
  app.use(notFound());
  app.use(errorHandler({ logger: createLogger({ level: 'silent' }) }));
  ({ origin: baseUrl, close } = await listenLocally(app));
});
afterAll(() => close());

const tooLarge = JSON.stringify({ slug: 'x'.repeat(4096) });

describe('rejectUnknownRoutes', () => {
  it('when the path is outside the spec, then 404 in the error shape, even with a body over the limit', async () => {
    const response = await fetch(`${baseUrl}/api/nothing-here`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: tooLarge,
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      status: 404,
      error: 'Not Found',
      message: 'No route POST /api/nothing-here',
    });
  });

  it('when the path is not under the base path, then 404', async () => {
    const response = await fetch(`${baseUrl}/events`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { status: number }).status).toBe(404);
  });

  it('when the method is not in the spec for a known path, then 405 with Allow before the body is read (no 400 for a broken body)', async () => {
    const response = await fetch(`${baseUrl}/api/events`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: '{broken',
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST');
    expect(await response.json()).toEqual({
      status: 405,
      error: 'Method Not Allowed',
      message: 'PATCH is not allowed on /api/events (allowed: GET, POST)',
    });
  });

  it("when the method is not in the spec for a path template, then 405 naming the template's methods", async () => {
    const response = await fetch(`${baseUrl}/api/events/5f0c1a52-8b0e-4c4f-9a59-1c3f0b7a2e11`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: tooLarge,
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, PUT, DELETE');
  });

  it('when OPTIONS asks a known path, then 204 with Allow and no body; on an unknown path, 404', async () => {
    const known = await fetch(`${baseUrl}/api/events`, { method: 'OPTIONS' });
    expect(known.status).toBe(204);
    expect(known.headers.get('allow')).toBe('GET, POST');
    expect(await known.text()).toBe('');
    const unknown = await fetch(`${baseUrl}/api/nothing-here`, { method: 'OPTIONS' });
    expect(unknown.status).toBe(404);
  });

  it('when the request is an operation of the spec, then it passes on: HEAD as GET, any letter case and a final slash as the router matches them', async () => {
    expect((await fetch(`${baseUrl}/api/events`, { method: 'HEAD' })).status).toBe(200);
    expect(await (await fetch(`${baseUrl}/api/EVENTS/`)).json()).toEqual({ reached: 'GET /api/EVENTS/' });
    expect(
      await (
        await fetch(`${baseUrl}/api/events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).json(),
    ).toEqual({ reached: 'POST /api/events' });
  });

  it("when an operation's body is over the limit, then the body parser answers 413 in the error shape (the guard let it through)", async () => {
    const response = await fetch(`${baseUrl}/api/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: tooLarge,
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { status: number }).status).toBe(413);
  });

  it("when a rate-limited operation's body cannot be read, then the 400 and the 413 carry the rate limit headers like every answer of it (DEC-RATE-002)", async () => {
    const http = rawClient(baseUrl); // fetch sends no body on GET
    try {
      for (const [body, status] of [
        ['{broken', 400],
        [tooLarge, 413],
      ] as const) {
        const answer = await http.send({
          method: 'GET',
          path: '/api/events',
          headers: { 'content-type': 'application/json' },
          body,
        });
        expect(answer.status).toBe(status);
        expect(answer.headers['x-ratelimit-limit']).toBe('20');
        expect(answer.headers['x-ratelimit-policy']).toBe('20;w=1;burst=40');
      }
    } finally {
      await http.close();
    }
    const detail = await fetch(`${baseUrl}/api/events/5f0c1a52-8b0e-4c4f-9a59-1c3f0b7a2e11`);
    expect(detail.status).toBe(200);
    expect(detail.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('when a spec operation has no route, then the last handler answers 404', async () => {
    const response = await fetch(`${baseUrl}/api/locations`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { message: string }).message).toBe('No route GET /api/locations');
  });
});

describe('errorHandler logging of 5xx answers', () => {
  const logged = async (error: Error) => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } });
    const app = express();
    app.get('/api/health', (_req, _res, next) => next(error));
    app.use(errorHandler({ logger }));
    const { origin, close: stop } = await listenLocally(app);
    try {
      const response = await fetch(`${origin}/api/health`);
      return { status: response.status, body: await response.json(), lines: lines.map((l) => JSON.parse(l)) };
    } finally {
      await stop();
    }
  };

  it('when the service answers its start-up 503, then it logs one info line without a stack', async () => {
    const { status, body, lines } = await logged(
      new HttpError(503, { message: 'The service is starting; retry after 1 s', expected: true }),
    );
    expect(status).toBe(503);
    expect(body).toMatchObject({ status: 503, message: 'The service is starting; retry after 1 s' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, status: 503, path: '/api/health' });
    expect(JSON.stringify(lines[0])).not.toContain('stack');
  });

  it('when a 503 is not expected, then it is an error line with the stack', async () => {
    const { lines } = await logged(new HttpError(503, { message: 'storage down' }));
    expect(lines[0]).toMatchObject({ level: 50 });
    expect(lines[0].err.stack).toContain('HttpError');
  });
});
