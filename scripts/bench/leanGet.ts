// The load generator's cheapest way to time a GET: one keep-alive HTTP/1.1 connection whose answers
// are parsed by http-parser-js (autocannon's parser) straight from one reused receive buffer, their
// bodies counted, not kept. On the bench's 2 cores, the CPU a reader spends taking in a large body
// is taken from the service and PostgreSQL: undici and node:http spend several times what this one
// does on a 2000-item page (docs/benchmarks.md), and the page's figure would then be the reader's.

import net from 'node:net';
import { HTTPParser } from 'http-parser-js';

export interface LeanAnswer {
  status: number;
  /** Bytes of the body, after any chunked framing. */
  bytes: number;
  /** The body's first bytes as text, for error messages. */
  head: string;
  /** ms from sending the request to the first byte of the body (to the end when it is empty). */
  firstByteMs: number;
}

interface Pending {
  resolve: (answer: LeanAnswer) => void;
  reject: (error: Error) => void;
  status: number;
  bytes: number;
  head: Buffer[];
  headBytes: number;
  sentAt: number;
  firstByteAt: number | undefined;
}

const HEAD_BYTES = 300;
const RECEIVE_BUFFER_BYTES = 4 * 1024 * 1024;
const PARSE_PART_BYTES = 64 * 1024;

export class LeanGetConnection {
  private socket: net.Socket | undefined;
  private pending: Pending | undefined;
  private readonly receiveBuffer = Buffer.allocUnsafe(RECEIVE_BUFFER_BYTES);
  private readonly origin: URL;

  constructor(origin: URL) {
    this.origin = origin;
    if (origin.protocol !== 'http:') throw new Error(`LeanGetConnection speaks plain HTTP only (${origin.origin})`);
  }

  /** GET `path` (with its query); one request at a time. Connects, or connects again after the server closed. */
  get(path: string, headers: Record<string, string> = {}): Promise<LeanAnswer> {
    if (this.pending !== undefined) throw new Error('LeanGetConnection: one request at a time');
    const lines = [`GET ${path} HTTP/1.1`, `host: ${this.origin.host}`];
    for (const [name, value] of Object.entries(headers)) {
      if (/[\r\n]/.test(name + value)) throw new Error(`header ${name}: line breaks are not allowed`);
      lines.push(`${name}: ${value}`);
    }
    const socket = this.socket ?? this.connect();
    return new Promise((resolve, reject) => {
      this.pending = {
        resolve,
        reject,
        status: 0,
        bytes: 0,
        head: [],
        headBytes: 0,
        sentAt: performance.now(),
        firstByteAt: undefined,
      };
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }

  private connect(): net.Socket {
    const parser = new HTTPParser(HTTPParser.RESPONSE);
    parser[HTTPParser.kOnHeadersComplete] = (info) => {
      if (this.pending !== undefined) this.pending.status = info.statusCode;
    };
    parser[HTTPParser.kOnBody] = (chunk, offset, length) => {
      const p = this.pending;
      if (p === undefined) return;
      p.firstByteAt ??= performance.now();
      p.bytes += length;
      if (p.headBytes < HEAD_BYTES) {
        const take = Math.min(length, HEAD_BYTES - p.headBytes);
        p.head.push(Buffer.from(chunk.subarray(offset, offset + take))); // the receive buffer is reused
        p.headBytes += take;
      }
    };
    parser[HTTPParser.kOnMessageComplete] = () => {
      const p = this.pending;
      if (p === undefined) return;
      this.pending = undefined;
      p.resolve({
        status: p.status,
        bytes: p.bytes,
        head: Buffer.concat(p.head).toString('utf8'),
        firstByteMs: (p.firstByteAt ?? performance.now()) - p.sentAt,
      });
    };
    const fail = (error: Error) => {
      const p = this.pending;
      this.pending = undefined;
      p?.reject(error);
    };
    const socket = net.connect({
      host: this.origin.hostname,
      port: Number(this.origin.port || 80),
      onread: {
        buffer: this.receiveBuffer,
        callback: (length) => {
          // In parts: http-parser-js counts all of a part in which an answer ends as header bytes of
          // the next answer, and refuses more than its limit of header bytes (80 kB).
          for (let at = 0; at < length; at += PARSE_PART_BYTES) {
            const parsed = parser.execute(this.receiveBuffer, at, Math.min(PARSE_PART_BYTES, length - at));
            if (parsed instanceof Error) {
              fail(new Error(`${this.origin.origin}: not an HTTP answer (${parsed.message})`));
              socket.destroy();
              break;
            }
          }
          return true;
        },
      },
    });
    socket.setNoDelay(true);
    socket.on('end', () => {
      if (this.socket === socket) this.socket = undefined;
      parser.finish(); // completes an answer whose body ends with the connection
      fail(new Error(`${this.origin.origin} closed the connection before the answer was complete`));
    });
    socket.on('error', fail);
    socket.on('close', () => {
      if (this.socket === socket) this.socket = undefined;
      fail(new Error(`${this.origin.origin}: the connection closed`));
    });
    this.socket = socket;
    return socket;
  }
}
