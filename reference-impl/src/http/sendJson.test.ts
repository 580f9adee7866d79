import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { listenLocally } from '../../test/support/listenLocally.ts';
import { errorHandler } from './errorHandler.ts';
import { streamJson } from './sendJson.ts';

// A JSON answer written piece by piece as it is made, behind the service's error handler: whole
// when it goes well, an ordinary error answer when making it fails before anything was sent, and
// a broken connection, never a complete-looking 200, when it fails later.

const pieces = (...texts: string[]) => texts.map((text) => Buffer.from(text));

/** The pieces, then `error` thrown when the next one is asked for. */
function* failingAfter(texts: string[], error: Error): Generator<Buffer> {
  yield* pieces(...texts);
  throw error;
}

const logged: Array<{ msg: string; err?: { message: string } }> = [];
let baseUrl = '';
let close: () => Promise<void> = async () => {};

beforeAll(async () => {
  const app = express();
  const big = 'x'.repeat(1024 * 1024);
  app.get('/one', (_req, res) => streamJson(res, pieces('[1,2]')));
  app.get('/many', (_req, res) => streamJson(res, pieces('[', `"${big}"`, ',', `"${big}"`, ']')));
  app.get('/fails-first', (_req, res) => streamJson(res, failingAfter([], new Error('store down'))));
  app.get('/fails-later', (_req, res) =>
    streamJson(res, failingAfter(['[', `"${big}"`, ',', `"${big}"`], new Error('render failed'))),
  );
  // Pieces made as rows arrive from the database.
  app.get('/async', (_req, res) =>
    streamJson(
      res,
      (async function* () {
        for (const piece of pieces('[', `"${big}"`, ',', `"${big}"`, ']')) {
          await new Promise((resolve) => setImmediate(resolve));
          yield piece;
        }
      })(),
    ),
  );
  app.get('/async-fails-later', (_req, res) =>
    streamJson(
      res,
      (async function* () {
        yield* failingAfter(['[', `"${big}"`], new Error('connection lost'));
      })(),
    ),
  );
  app.use(
    errorHandler({
      logger: createLogger({ level: 'info', destination: { write: (line: string) => logged.push(JSON.parse(line)) } }),
    }),
  );
  ({ origin: baseUrl, close } = await listenLocally(app));
});
afterAll(() => close());

describe('streamJson', () => {
  it('when the JSON is one piece, then it goes whole with its Content-Length', async () => {
    const response = await fetch(`${baseUrl}/one`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('content-length')).toBe('5');
    expect(await response.json()).toEqual([1, 2]);
  });

  it('when the JSON is several pieces larger than the socket takes at once, then they arrive whole and in order', async () => {
    const response = await fetch(`${baseUrl}/many`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const items = (await response.json()) as string[];
    expect(items.map((item) => item.length)).toEqual([1024 * 1024, 1024 * 1024]);
  });

  it('when the pieces are made asynchronously, then they arrive whole and in order; a later failure breaks the answer', async () => {
    const response = await fetch(`${baseUrl}/async`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as string[]).map((item) => item.length)).toEqual([1024 * 1024, 1024 * 1024]);
    const failing = await fetch(`${baseUrl}/async-fails-later`);
    expect(failing.status).toBe(200);
    await expect(failing.text()).rejects.toThrow();
  });

  it('when making the first piece fails, then the answer is the error handler’s 500', async () => {
    const response = await fetch(`${baseUrl}/fails-first`);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ message: 'Internal server error' });
  });

  it('when making a piece fails after the answer began, then the client cannot read it as whole, and the error is logged', async () => {
    logged.length = 0;
    const response = await fetch(`${baseUrl}/fails-later`);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
    expect(logged).toContainEqual(
      expect.objectContaining({
        msg: 'error after the answer began',
        err: expect.objectContaining({ message: 'render failed' }),
      }),
    );
  });
});
