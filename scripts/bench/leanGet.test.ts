import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LeanGetConnection } from './leanGet.ts';

// The bench's lean reader against real servers: node:http for the framings a service sends, a raw
// socket server for what node:http would not send.

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function listen(server: net.Server): Promise<URL> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return new URL(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`);
}

function open(origin: URL): LeanGetConnection {
  const connection = new LeanGetConnection(origin);
  closers.push(() => connection.close());
  return connection;
}

describe('LeanGetConnection', () => {
  it('counts sized and chunked bodies over one keep-alive connection, sending the headers given', async () => {
    const big = Buffer.alloc(5_000_000, 'x');
    const seen: Array<{ url: string; token: string | undefined }> = [];
    let connections = 0;
    const server = http.createServer((req, res) => {
      seen.push({ url: req.url!, token: req.headers.authorization });
      if (req.url === '/sized') return void res.writeHead(200, { 'content-length': big.length }).end(big);
      // Chunked: 50 pieces written one by one, then the last.
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0; i < 50; i++) res.write(big.subarray(0, 100_000 + i));
      res.end('[]');
    });
    server.on('connection', () => connections++);
    const connection = open(await listen(server));

    const sized = await connection.get('/sized', { authorization: 'Bearer t' });
    const chunked = await connection.get('/chunked?size=2000');
    const again = await connection.get('/sized');

    expect(sized).toEqual({ status: 200, bytes: big.length, head: 'x'.repeat(300), firstByteMs: expect.any(Number) });
    const chunkedBytes = 50 * 100_000 + (49 * 50) / 2 + 2;
    expect(chunked.bytes).toBe(chunkedBytes);
    expect(again.bytes).toBe(big.length);
    expect(seen).toEqual([
      { url: '/sized', token: 'Bearer t' },
      { url: '/chunked?size=2000', token: undefined },
      { url: '/sized', token: undefined },
    ]);
    expect(connections).toBe(1);
  });

  it('gives the status and the start of the body of an error answer', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'down' }));
    });
    const answer = await open(await listen(server)).get('/');
    expect(answer).toMatchObject({ status: 503, bytes: 18, head: '{"message":"down"}' });
  });

  it('times the first byte of a body sent in pieces apart from its last', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[1');
      setTimeout(() => res.end(',2]'), 300);
    });
    const connection = open(await listen(server));
    const started = performance.now();
    const answer = await connection.get('/');
    const total = performance.now() - started;
    expect(answer.bytes).toBe(5);
    expect(total).toBeGreaterThanOrEqual(300);
    expect(answer.firstByteMs).toBeGreaterThan(0);
    expect(answer.firstByteMs).toBeLessThan(total - 200);
  });

  it('connects again after the server closed an idle connection', async () => {
    let connections = 0;
    const server = http.createServer((req, res) => {
      res.end('ok');
      res.on('finish', () => req.socket.end()); // closed once answered, as an idle keep-alive connection is
    });
    server.on('connection', () => connections++);
    const connection = open(await listen(server));
    expect((await connection.get('/')).bytes).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await connection.get('/')).bytes).toBe(2);
    expect(connections).toBe(2);
  });

  it('completes a body that ends with the connection', async () => {
    const server = net.createServer((socket) => {
      socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nconnection: close\r\n\r\nuntil the end'));
    });
    expect(await open(await listen(server)).get('/')).toMatchObject({
      status: 200,
      bytes: 13,
      head: 'until the end',
    });
  });

  it('fails when the connection breaks mid-answer or the answer is not HTTP', async () => {
    const cut = net.createServer((socket) => {
      socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nonly part'));
    });
    await expect(open(await listen(cut)).get('/')).rejects.toThrow(/closed the connection before the answer/);

    const garbage = net.createServer((socket) => {
      socket.once('data', () => socket.write('SMTP ready\r\n\r\n'));
    });
    await expect(open(await listen(garbage)).get('/')).rejects.toThrow(/not an HTTP answer/);
  });

  it('refuses header values that would break the request', () => {
    const connection = new LeanGetConnection(new URL('http://127.0.0.1:9'));
    expect(() => connection.get('/', { authorization: 'Bearer a\r\nx-injected: 1' })).toThrow(/line breaks/);
  });
});
