import type { Response } from 'express';

// JSON that is already text, sent as it is made.

/**
 * JSON that is already text, as `res.json` would send it. As bytes: Node writes a long string to
 * the socket markedly slower than the same text encoded once.
 */
export function sendJson(res: Response, json: string | Buffer): void {
  res.set('Content-Type', 'application/json; charset=utf-8').send(json);
}

/**
 * JSON in pieces made as they are taken (a list page): each piece is written while the client
 * reads the one before, waiting for the socket when it is full. Nothing is sent until the second
 * piece is made, so that an answer of one piece goes whole with its Content-Length and an error
 * while making the first is an ordinary error answer. An error after that throws with the
 * connection still open mid-answer: the error handler then ends the connection without finishing
 * the answer, so that the client sees a broken answer, never a shorter one that looks whole.
 */
export async function streamJson(res: Response, chunks: AsyncIterable<Buffer> | Iterable<Buffer>): Promise<void> {
  const pieces = Symbol.asyncIterator in chunks ? chunks[Symbol.asyncIterator]() : chunks[Symbol.iterator]();
  try {
    const first = await pieces.next();
    if (first.done) throw new Error('streamJson: no JSON to send');
    let next = await pieces.next();
    if (next.done) return sendJson(res, first.value);
    res.set('Content-Type', 'application/json; charset=utf-8');
    res.write(first.value);
    while (!next.done) {
      if (!res.write(next.value)) await writable(res);
      if (res.destroyed) return; // the client went away
      next = await pieces.next();
    }
    res.end();
  } finally {
    await pieces.return?.();
  }
}

/** Resolves when the response drains or closes. */
function writable(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
