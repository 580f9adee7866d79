import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { badRequest, HttpError } from '../http/HttpError.ts';
import type { AssetFileStore, StagedFile } from './fileStore.ts';
import { ACCEPTED_MIMETYPES, FILE_EXTENSIONS, SNIFF_BYTES, sniffType, type AcceptedMimetype } from './sniff.ts';

/** An accepted upload, staged in the store but not yet committed. */
export interface ReceivedUpload {
  staged: StagedFile;
  /** The client's file name without directories or control characters; never used as a path. */
  filename: string;
  mimetype: AcceptedMimetype;
  size: number;
  sha256: string;
  title: string | undefined;
  description: string | undefined;
}

export interface ReceiveUploadOptions {
  maxBytes: number;
  store: AssetFileStore;
}

const TEXT_PARTS = { title: 500, description: 5000 } as const; // characters (DEC-ASSET-007)
// Room for multipart framing and the two text parts: a Content-Length beyond max + this cannot
// hold an acceptable upload, so it is refused before a byte is read.
const FORM_OVERHEAD_BYTES = 64 * 1024;
// busboy decodes text parts and file names as UTF-8 and puts U+FFFD for bytes that are not, so a
// U+FFFD is refused: stored, it would silently replace what the client sent (DEC-ASSET-010).
const REPLACEMENT = '\ufffd';

// @implements ERR-003, ERR-004
/**
 * Reads a `multipart/form-data` upload (DEC-ASSET-001): one `file` part, optional `title` and
 * `description`. The file streams into a staged file while its bytes are counted and hashed; its
 * type is sniffed from the first bytes before anything is written. Over `maxBytes` is a 413 and a
 * type outside the allowlist a 415, both at once, with the staged bytes discarded.
 */
export function receiveUpload(req: IncomingMessage, options: ReceiveUploadOptions): Promise<ReceivedUpload> {
  const contentType = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    return Promise.reject(
      new HttpError(415, {
        message: `upload must be multipart/form-data with a file part (received Content-Type: ${contentType || 'none'})`,
      }),
    );
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > options.maxBytes + FORM_OVERHEAD_BYTES) {
    return Promise.reject(tooLarge(options.maxBytes, true));
  }

  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        // busboy reports a size limit when it is reached and a parts limit when the last allowed
        // part completes: +1 on both, so that exactly maxBytes and all three parts are allowed.
        limits: {
          fileSize: options.maxBytes + 1,
          files: 1,
          fields: 2,
          parts: 4,
          fieldSize: 4 * TEXT_PARTS.description + 1,
          fieldNameSize: 100,
          headerPairs: 20,
        },
      });
    } catch (error) {
      reject(
        new HttpError(400, { message: `multipart body cannot be read: ${(error as Error).message}`, cause: error }),
      );
      return;
    }

    const fields: { title?: string; description?: string } = {};
    let fileStream: Readable | undefined;
    let staged: StagedFile | undefined;
    let file: Promise<Omit<ReceivedUpload, 'title' | 'description'>> | undefined;
    let settled = false;

    const fail = (error: HttpError) => {
      if (settled) return;
      settled = true;
      // Stop parsing; the route reads and drops the rest of the body after answering (POST /assets).
      req.unpipe(parser);
      parser.removeAllListeners();
      parser.on('error', () => {});
      fileStream?.destroy();
      // Answer only once the staged bytes are gone: "nothing stored" holds when the client hears.
      void Promise.resolve(staged?.discard())
        .catch(() => {})
        .finally(() => reject(error));
    };

    parser.on('field', (name, value, info) => {
      if (name !== 'title' && name !== 'description') {
        fail(badRequest(`/${name}`, `unknown multipart part ${name} (expected: file, title, description)`));
      } else if (fields[name] !== undefined) {
        fail(badRequest(`/${name}`, `multipart part ${name} must be given once`));
      } else if (info.valueTruncated || [...value].length > TEXT_PARTS[name]) {
        fail(badRequest(`/${name}`, `${name} must be at most ${TEXT_PARTS[name]} characters`));
      } else if (value.includes(REPLACEMENT)) {
        fail(badRequest(`/${name}`, `${name} is not valid UTF-8`));
      } else if (value.includes('\u0000')) {
        // PostgreSQL text cannot hold U+0000 (DEC-ITEM-028): a client error, not a storage failure.
        fail(badRequest(`/${name}`, `${name} contains the character U+0000, which cannot be stored`));
      } else {
        fields[name] = value;
      }
    });

    parser.on('file', (name, stream, info) => {
      if (name !== 'file') {
        stream.resume();
        fail(badRequest(`/${name}`, `unknown multipart file part ${name} (expected the file in a part named file)`));
        return;
      }
      if (info.filename?.includes(REPLACEMENT)) {
        stream.resume();
        fail(badRequest('/file', 'the file name is not valid UTF-8'));
        return;
      }
      fileStream = stream;
      staged = options.store.stage();
      file = consumeFile(stream, staged, options.maxBytes).then((received) => ({
        ...received,
        filename: cleanFilename(info.filename, received.mimetype),
      }));
      file.catch((error: unknown) =>
        fail(
          error instanceof HttpError
            ? error
            : new HttpError(400, { message: `upload failed: ${(error as Error).message}`, cause: error }),
        ),
      );
    });

    parser.on('filesLimit', () => fail(badRequest('/file', 'multipart body must hold one file part')));
    parser.on('partsLimit', () =>
      fail(badRequest('', 'multipart body has too many parts (expected: file, title, description)')),
    );
    parser.on('fieldsLimit', () =>
      fail(badRequest('', 'multipart body has too many parts (expected: file, title, description)')),
    );
    parser.on('error', (error) =>
      fail(new HttpError(400, { message: `multipart body cannot be read: ${(error as Error).message}`, cause: error })),
    );
    parser.on('close', () => {
      if (file === undefined) {
        fail(badRequest('/file', 'multipart body has no file part'));
        return;
      }
      file.then(
        (received) => {
          if (settled) return;
          settled = true;
          resolve({ ...received, title: fields.title, description: fields.description });
        },
        () => {},
      );
    });
    req.on('close', () => {
      if (!req.complete) fail(new HttpError(400, { message: 'upload was aborted by the client' }));
    });
    req.pipe(parser);
  });
}

/** Streams the file part into `staged`: counted, hashed, and sniffed before the first write. */
async function consumeFile(
  stream: Readable & { truncated?: boolean },
  staged: StagedFile,
  maxBytes: number,
): Promise<Omit<ReceivedUpload, 'filename' | 'title' | 'description'>> {
  const hash = createHash('sha256');
  let size = 0;
  let head: Buffer[] | undefined = [];
  let headBytes = 0;
  let mimetype: AcceptedMimetype | undefined;
  // busboy ends the stream early and sets `truncated` when the limit is reached.
  const overLimit = new Promise<never>((_resolve, reject) =>
    stream.once('limit', () => reject(tooLarge(maxBytes, false))),
  );
  overLimit.catch(() => {});

  const flushHead = async () => {
    const bytes = Buffer.concat(head!);
    head = undefined;
    const sniffed = await sniffType(bytes);
    if (!sniffed.accepted) {
      throw new HttpError(415, {
        message: `file type ${sniffed.detected ?? 'unknown'} is not accepted; accepted: ${ACCEPTED_MIMETYPES.join(', ')}`,
      });
    }
    mimetype = sniffed.mimetype;
    await staged.write(bytes);
  };

  const read = (async () => {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge(maxBytes, false);
      hash.update(chunk);
      if (head === undefined) {
        await staged.write(chunk);
      } else {
        head.push(chunk);
        headBytes += chunk.length;
        if (headBytes >= SNIFF_BYTES) await flushHead();
      }
    }
    if (stream.truncated === true) throw tooLarge(maxBytes, false);
    if (head !== undefined) await flushHead();
  })();
  await Promise.race([read, overLimit]);
  return { staged, mimetype: mimetype!, size, sha256: hash.digest('hex') };
}

function tooLarge(maxBytes: number, early: boolean): HttpError {
  // No `Connection: close`: Node would then close the socket under a client still sending, which
  // then sees a reset instead of this answer. The route drops the rest of the body up to a cap.
  return new HttpError(413, {
    message: `upload exceeds the limit of ${maxBytes} bytes${early ? ' (by its Content-Length)' : ''}`,
  });
}

/**
 * The last path segment of the client's file name, without control characters, at most 255
 * characters; `upload.<ext>` when nothing usable remains. Stored for the URL only.
 */
export function cleanFilename(raw: string | undefined, mimetype: AcceptedMimetype): string {
  const last = (raw ?? '').split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = [...last.replace(/[\u0000-\u001f\u007f]/g, '').trim()].slice(0, 255).join('');
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? `upload.${FILE_EXTENSIONS[mimetype]}` : cleaned;
}
