import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discardUnreadBody } from './discardUnreadBody.ts';

const OPTIONS = { maxBytes: 256 * 1024, maxMs: 1500, lingerMs: 300 };

/** What a raw client saw: everything the server sent, whether it ended, how much it could send. */
interface Seen {
  text: string;
  ended: boolean;
  closed: boolean;
}

function watch(socket: Socket): Seen {
  const seen: Seen = { text: '', ended: false, closed: false };
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    seen.text += chunk;
  });
  socket.on('end', () => {
    seen.ended = true;
  });
  socket.on('close', () => {
    seen.closed = true;
  });
  socket.on('error', () => {});
  return seen;
}

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('discardUnreadBody', () => {
  let server: Server;
  let port: number;
  // A handler that answers 413 before reading the body, as POST /assets does on a Content-Length.
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.method === 'GET') {
        res.end('second');
        return;
      }
      discardUnreadBody(req, res, OPTIONS);
      res.writeHead(413, { 'content-type': 'text/plain', 'content-length': '8' }).end('refused\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  const open = async (): Promise<Socket> => {
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    return socket;
  };

  it('when the rest of the body fits in the cap, then it is read to its end and the connection serves the next request', async () => {
    const socket = await open();
    const seen = watch(socket);
    socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${100_000}\r\n\r\n`);
    await until(() => seen.text.includes('refused'));
    socket.write(Buffer.alloc(100_000));
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await until(() => seen.text.includes('second'));
    expect(seen.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(seen.ended).toBe(false);
    socket.destroy();
  });

  it('when the client keeps sending beyond the cap, then it gets the answer, then the end of the connection, without a reset while it reads', async () => {
    const socket = await open();
    const seen = watch(socket);
    socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n`);
    let sent = 0;
    const chunk = Buffer.alloc(64 * 1024);
    let writeError: string | undefined;
    socket.on('error', (error: NodeJS.ErrnoException) => {
      writeError = error.code;
    });
    while (!seen.ended && sent < 100 * 1024 * 1024 && writeError === undefined) {
      if (!socket.write(chunk)) await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
      sent += chunk.length;
    }
    await until(() => seen.ended);
    expect(seen.text).toMatch(/^HTTP\/1\.1 413 [^]*refused\n$/);
    expect(writeError).toBeUndefined();
    // The server stopped at the cap: what was sent is the cap plus what the buffers held.
    expect(sent).toBeLessThan(OPTIONS.maxBytes + 16 * 1024 * 1024);
    await until(() => seen.closed, 3000);
  });

  it('when the client stalls mid-body, then the connection is closed after the time budget', async () => {
    const socket = await open();
    const seen = watch(socket);
    const started = Date.now();
    socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n${'x'.repeat(1000)}`);
    await until(() => seen.ended, 5000);
    const elapsed = Date.now() - started;
    expect(seen.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(elapsed).toBeGreaterThanOrEqual(OPTIONS.maxMs - 50);
    expect(elapsed).toBeLessThan(OPTIONS.maxMs + 1500);
    await until(() => seen.closed, 3000);
  });
});
