import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenLocally } from '../../test/support/listenLocally.ts';
import { readJsonBody } from './readJsonBody.ts';

describe('readJsonBody', () => {
  let baseUrl: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const app = express();
    app.use(
      readJsonBody({
        preAuthBytes: 16 * 1024,
        bodyTimeoutMs: 10_000,
        discard: { maxBytes: 1024, maxMs: 1000, lingerMs: 1000 },
      }),
    );
    app.post('/echo', (req, res) => {
      res.json({ names: Object.keys(req.body as object), body: req.body as unknown });
    });
    ({ origin: baseUrl, close } = await listenLocally(app));
  });
  afterAll(() => close());

  const post = async (body: string | Buffer) => {
    const response = await fetch(`${baseUrl}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    return { status: response.status, json: (await response.json()) as { names: string[]; body: unknown } };
  };

  it('when member names hold escapes, then each is read as written, also after a similar earlier one', async () => {
    expect((await post('{"h":[],"\\\\":0}')).json.names).toEqual(['h', '\\']);
    expect((await post('{"h":1,"\\"":2}')).json.names).toEqual(['h', '"']);
    expect((await post('{"a":{"\\u0022":"x\\ny"}}')).json.body).toEqual({ a: { '"': 'x\ny' } });
  });

  it('when the body starts with a byte order mark, then it is read as without one', async () => {
    const answer = await post(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"\\"":1}')]));
    expect(answer).toEqual({ status: 200, json: { names: ['"'], body: { '"': 1 } } });
  });

  it('when one object repeats a member name, in any spelling, then 400 naming it, and the handler never sees the body [DEC-ERR-006]', async () => {
    for (const [text, pointer] of [
      ['{"wfstatus":"draft","wfstatus":"approved"}', '/wfstatus'],
      ['{"a":{"b":1,"\\u0062":2}}', '/a/b'],
      ['{"x":[{"k":1},{"k":1,"k":2}]}', '/x/1/k'],
    ] as const) {
      const response = await fetch(`${baseUrl}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: text,
      });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain(pointer.split('/').pop()!);
    }
  });

  it('when names repeat only across objects, or a value looks like a name, then the body is read [DEC-ERR-006]', async () => {
    expect((await post('[{"a":1},{"a":2}]')).status).toBe(200);
    expect((await post('{"a":{"a":1},"b":":","c":"\\":"}')).json.body).toEqual({ a: { a: 1 }, b: ':', c: '":' });
  });
});
