// Fault: POST /assets trusts the declared MIME type and stores whatever it is sent, answering 201
// (breaks ERR-004: a MIME type that is not accepted is a 415). The proxy answers for the service
// when the file part's bytes are not the image its Content-Type declares.

import { randomUUID } from 'node:crypto';
import type { FaultModifier } from '../faultProxy.ts';
import { jsonAnswer, urlOf } from '../traffic.ts';

const MAGIC: Record<string, Buffer> = {
  'image/jpeg': Buffer.from([0xff, 0xd8, 0xff]),
  'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
};

/** The file part of a multipart body: its declared type, file name and first bytes. */
function filePart(body: Buffer): { type: string; filename: string; head: Buffer } | undefined {
  const text = body.toString('latin1');
  const m = /filename="([^"]*)"\r\nContent-Type: ([^\r\n]+)\r\n\r\n/i.exec(text);
  if (!m) return undefined;
  const start = m.index + m[0].length;
  return { filename: m[1]!, type: m[2]!.trim().toLowerCase(), head: body.subarray(start, start + 4) };
}

export function unacceptedTypeStored(): FaultModifier {
  return {
    name: 'unacceptedTypeStored',
    request(req) {
      if (req.method !== 'POST' || !/\/assets$/.test(urlOf(req).pathname)) return req;
      const part = filePart(req.body);
      const magic = part && MAGIC[part.type];
      if (!part || !magic || part.head.subarray(0, magic.length).equals(magic)) return req;
      const now = new Date().toISOString();
      return {
        ...req,
        answer: jsonAnswer(201, {
          id: randomUUID(),
          filename: part.filename,
          mimetype: part.type,
          created: now,
          modified: now,
        }),
      };
    },
  };
}
