// A client of POST /assets in a process of its own, as an integration would be: Node's fetch
// (undici) sending a PDF of a given size, `tries` times one after the other, and printing one JSON
// line with what it read each time: the status and the error body, or the error code when fetch
// failed. In the test's own process the server and the client would share one event loop and
// take turns, which hides the race between the client's writes and the server's close.
//
//   node oversizedUploadClient.ts <baseUrl> <token> length|chunked <bytes> <tries>
//
// length: a FormData body (with a Content-Length); chunked: a stream without a length, written
// in 64 KiB pieces.

const [baseUrl, token, mode, bytesArg, triesArg] = process.argv.slice(2);
const size = Number(bytesArg);
const tries = Number(triesArg);

function pdf(length: number): Buffer {
  const bytes = Buffer.alloc(length, 0x20);
  bytes.write('%PDF-1.4\n');
  return bytes;
}

function chunkedBody(file: Buffer, boundary: string): ReadableStream<Uint8Array> {
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  let offset = -1;
  return new ReadableStream({
    async pull(controller) {
      if (offset === -1) {
        controller.enqueue(head);
        offset = 0;
      } else if (offset < file.length) {
        controller.enqueue(file.subarray(offset, offset + 65536));
        offset += 65536;
        await new Promise((resolve) => setImmediate(resolve));
      } else {
        controller.enqueue(tail);
        controller.close();
      }
    },
  });
}

async function once(): Promise<{ status?: number; body?: unknown; error?: string }> {
  const file = pdf(size);
  let init: RequestInit & { duplex?: 'half' };
  if (mode === 'chunked') {
    const boundary = `b${Math.random().toString(16).slice(2)}`;
    init = {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: chunkedBody(file, boundary),
      duplex: 'half',
    };
  } else {
    const form = new FormData();
    form.append('file', new Blob([file], { type: 'application/pdf' }), 'big.pdf');
    init = { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form };
  }
  try {
    const response = await fetch(`${baseUrl}/assets`, init);
    return { status: response.status, body: await response.json() };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { error: cause?.code ?? cause?.message ?? (error as Error).message };
  }
}

const outcomes = [];
for (let i = 0; i < tries; i++) outcomes.push(await once());
process.stdout.write(`${JSON.stringify(outcomes)}\n`);
