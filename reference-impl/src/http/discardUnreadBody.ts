import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler } from 'express';

export interface DiscardUnreadBodyOptions {
  /** Bytes of the unread body read and dropped at most; past them the connection is closed. */
  maxBytes: number;
  /** Time the rest of the body may take to arrive; then the connection is closed. */
  maxMs: number;
  /** After the close is announced, how long what still arrives is dropped before the socket goes. */
  lingerMs: number;
}

/**
 * After an answer sent before the request body was read (a 413 on an upload's Content-Length, a
 * 413 or 415 mid-way, a 401): reads and drops the rest of the body, so that a client still
 * sending is not reset (EPIPE, ECONNRESET) before it reads the answer. A body that ends within
 * the caps leaves the connection usable; past `maxBytes` or `maxMs` the connection is closed once
 * the answer is out: first only our sending side (the client reads the answer, then the end),
 * and `lingerMs` later the socket. Nothing read here is kept.
 */
export function discardUnreadBody(req: IncomingMessage, res: ServerResponse, options: DiscardUnreadBodyOptions): void {
  const socket = req.socket;
  if (req.complete || socket.destroyed) return;
  let dropped = 0;
  let closing = false;

  const closeAfterAnswer = () => {
    if (closing) return;
    closing = true;
    clearTimeout(budget);
    req.off('data', count);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      socket.end();
      setTimeout(() => socket.destroy(), options.lingerMs).unref();
    };
    if (res.writableFinished || res.destroyed) end();
    else {
      res.once('finish', end);
      res.once('close', end);
    }
  };
  const count = (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > options.maxBytes) closeAfterAnswer();
  };
  const budget = setTimeout(closeAfterAnswer, options.maxMs);
  budget.unref();
  const done = () => {
    clearTimeout(budget);
    req.off('data', count);
  };
  req.once('end', done);
  socket.once('close', done);

  req.on('data', count);
  req.resume();
}

/**
 * Error middleware for a route whose body may still be on its way when it fails: starts
 * `discardUnreadBody` and passes the error on to be answered.
 */
export function discardBodyOnError(options: DiscardUnreadBodyOptions): ErrorRequestHandler {
  return function discardBodyOfRefusedRequest(error, req, res, next) {
    discardUnreadBody(req, res, options);
    next(error);
  };
}
