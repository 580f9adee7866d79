// docs/guides/verifying-webhooks.md: the worked example, the common-mistakes table and the retry
// table are recomputed from code on every run, so the guide cannot drift from what the service
// signs and what the client accepts.
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook, type VerifyFailureReason } from '../../client/webhooks/verify.ts';
import { describeSchedule } from '../../reference-impl/src/webhooks/retrySchedule.ts';
import { signPayload } from '../../reference-impl/src/webhooks/sign.ts';
import { between, codeBlocks, loadGuide, markedBlock, tableRows } from './markdown.ts';

const guide = loadGuide('verifying-webhooks.md');

function workedExample(): { secret: string; timestamp: string; body: string; signature: string } {
  const block = markedBlock(guide, 'guide-test:worked-example');
  const values = new Map<string, string>();
  for (const line of block.content.split('\n')) {
    const m = /^(\w+)\s*=\s(.*)$/.exec(line);
    if (!m) throw new Error(`worked example: cannot read line ${JSON.stringify(line)}`);
    values.set(m[1]!, m[2]!);
  }
  const get = (key: string) => {
    const v = values.get(key);
    if (v === undefined || v === '') throw new Error(`worked example: no ${key}`);
    return v;
  };
  return { secret: get('secret'), timestamp: get('timestamp'), body: get('body'), signature: get('signature') };
}

const ex = workedExample();
const nowNear = (offsetSeconds: number) => (Number(ex.timestamp) + offsetSeconds) * 1000;
const headersFor = (signature: string, timestamp = ex.timestamp) => ({
  'X-Service-Timestamp': timestamp,
  'X-Service-Signature': signature,
  'X-Service-Delivery': '0f8fad5b-d9cb-469f-a165-70867728950e',
});

function onPath(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).status === 0;
}

// Snippets run from a scratch folder inside tests/guides/, so relative imports and the package
// resolve as in the repository; removed after the run.
const scratch = fs.mkdtempSync(path.join(import.meta.dirname, '.tmp-webhooks-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('docs/guides/verifying-webhooks.md: worked example', () => {
  it('when the secret is read, then it has the form DEC-HOOK-001 gives secrets (43 base64url characters, no prefix)', () => {
    expect(ex.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(ex.timestamp).toMatch(/^\d{10}$/);
  });

  it('when the signature is recomputed with node:crypto, then it equals the one in the guide', () => {
    const hex = createHmac('sha256', Buffer.from(ex.secret, 'utf8'))
      .update(`${ex.timestamp}.${ex.body}`, 'utf8')
      .digest('hex');
    expect(`sha256=${hex}`).toBe(ex.signature);
  });

  it("when the client's signWebhook and the reference service's signPayload sign it, then both give the guide's signature", () => {
    expect(signWebhook(ex.secret, ex.timestamp, ex.body)).toBe(ex.signature);
    expect(signPayload(ex.secret, ex.timestamp, Buffer.from(ex.body, 'utf8'))).toBe(ex.signature);
  });

  it("when the client's verifyWebhook checks it near the timestamp, then it passes, and fails once a byte or the secret changes", () => {
    const ok = verifyWebhook(Buffer.from(ex.body, 'utf8'), headersFor(ex.signature), ex.secret, { now: nowNear(120) });
    expect(ok).toEqual({
      ok: true,
      deliveryId: '0f8fad5b-d9cb-469f-a165-70867728950e',
      timestamp: Number(ex.timestamp),
    });
    const changed = verifyWebhook(
      Buffer.from(ex.body.replace('UPDATED', 'DELETED'), 'utf8'),
      headersFor(ex.signature),
      ex.secret,
      { now: nowNear(0) },
    );
    expect(changed).toMatchObject({ ok: false, reason: 'signature_mismatch' });
    const otherSecret = verifyWebhook(ex.body, headersFor(ex.signature), `${ex.secret.slice(0, -1)}A`, {
      now: nowNear(0),
    });
    expect(otherSecret).toMatchObject({ ok: false, reason: 'signature_mismatch' });
  });

  it('when the receiver clock is 300 s off either way, then it passes; at 301 s, then it fails (HOOK-014)', () => {
    const at = (offset: number) =>
      verifyWebhook(ex.body, headersFor(ex.signature), ex.secret, { now: nowNear(offset) });
    expect(at(300).ok).toBe(true);
    expect(at(-300).ok).toBe(true);
    expect(at(301)).toMatchObject({ ok: false, reason: 'timestamp_too_old' });
    expect(at(-301)).toMatchObject({ ok: false, reason: 'timestamp_too_new' });
  });

  it('when the guide states the body length, then it is the byte length of the body', () => {
    const stated = /no newline at the end \((\d+) bytes\)/.exec(guide.text);
    expect(stated, 'the guide states "(N bytes)" after the worked example').not.toBeNull();
    expect(Number(stated![1])).toBe(Buffer.byteLength(ex.body, 'utf8'));
  });

  it('when the guide shows the signed payload and the HTTP request, then they carry the same values', () => {
    const blocks = codeBlocks(guide);
    expect(
      blocks.some((b) => b.code === `${ex.timestamp}.${ex.body}`),
      'a block holding exactly <timestamp>.<body>',
    ).toBe(true);
    const request = blocks.find((b) => b.lang === 'http' && b.code.startsWith('POST '));
    expect(request, 'the example POST').toBeDefined();
    expect(request!.code).toContain(`X-Service-Timestamp: ${ex.timestamp}\n`);
    expect(request!.code).toContain(`X-Service-Signature: ${ex.signature}\n`);
    expect(request!.code.split('\n').at(-1)).toBe(ex.body);
  });

  it.skipIf(!onPath('openssl'))('when the openssl command of the guide runs, then it prints the signature', () => {
    const block = markedBlock(guide, 'guide-test:openssl');
    expect(block.lang).toBe('sh');
    expect(block.content).toContain(`${ex.timestamp}.${ex.body}`);
    const run = spawnSync('sh', ['-c', block.content], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe(ex.signature);
  });

  it('when the plain node:crypto snippet is imported, then it accepts the example and rejects a changed byte and a stale timestamp', async () => {
    const block = markedBlock(guide, 'guide-test:node-crypto');
    expect(block.lang).toBe('ts');
    const file = path.join(scratch, 'nodeCrypto.ts');
    fs.writeFileSync(file, block.content);
    const { verifyServiceSignature } = (await import(file)) as {
      verifyServiceSignature: (
        rawBody: Uint8Array,
        timestamp: string,
        signature: string,
        secret: string,
        nowSeconds?: number,
      ) => boolean;
    };
    const ts = Number(ex.timestamp);
    const body = Buffer.from(ex.body, 'utf8');
    expect(verifyServiceSignature(body, ex.timestamp, ex.signature, ex.secret, ts + 120)).toBe(true);
    expect(verifyServiceSignature(body, ex.timestamp, ex.signature, ex.secret, ts - 300)).toBe(true);
    expect(verifyServiceSignature(body, ex.timestamp, ex.signature, ex.secret, ts + 301)).toBe(false);
    expect(verifyServiceSignature(Buffer.from(`${ex.body} `), ex.timestamp, ex.signature, ex.secret, ts)).toBe(false);
    expect(verifyServiceSignature(body, ex.timestamp, ex.signature.toUpperCase(), ex.secret, ts)).toBe(false);
  });

  const python =
    onPath('python3') &&
    spawnSync('python3', ['-c', 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)']).status === 0;
  it.skipIf(!python)('when the Python snippet runs, then it accepts the example and rejects the mistakes', () => {
    const block = markedBlock(guide, 'guide-test:python');
    expect(block.lang).toBe('python');
    const check = `
import json, sys
ex = json.loads(sys.argv[1])
body = ex["body"].encode("utf-8")
ts = int(ex["timestamp"])
results = [
    verify_service_signature(body, ex["timestamp"], ex["signature"], ex["secret"], now=ts + 120),
    verify_service_signature(body, ex["timestamp"], ex["signature"], ex["secret"], now=ts - 300),
    verify_service_signature(body, ex["timestamp"], ex["signature"], ex["secret"], now=ts + 301),
    verify_service_signature(body + b" ", ex["timestamp"], ex["signature"], ex["secret"], now=ts),
    verify_service_signature(body, ex["timestamp"], ex["signature"].upper(), ex["secret"], now=ts),
    verify_service_signature(body, ex["timestamp"], "sha256=\u00e9", ex["secret"], now=ts),
]
print(json.dumps(results))
`;
    const run = spawnSync('python3', ['-c', `${block.content}\n${check}`, JSON.stringify(ex)], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual([true, true, false, false, false, false]);
  });
});

describe('docs/guides/verifying-webhooks.md: common mistakes', () => {
  const hmac = (key: Buffer, message: string) => createHmac('sha256', key).update(message, 'utf8');
  const utf8Key = Buffer.from(ex.secret, 'utf8');
  const payload = `${ex.timestamp}.${ex.body}`;
  const hex = hmac(utf8Key, payload).digest('hex');

  // One computation per row of the table: the mistake, made for real.
  const mistakes: Record<string, { header: () => string; reason: VerifyFailureReason }> = {
    'Re-serialised JSON': {
      header: () =>
        `sha256=${hmac(utf8Key, `${ex.timestamp}.${JSON.stringify(JSON.parse(ex.body), null, 2)}`).digest('hex')}`,
      reason: 'signature_mismatch',
    },
    'Base64 instead of hex': {
      header: () => `sha256=${hmac(utf8Key, payload).digest('base64')}`,
      reason: 'malformed_signature',
    },
    'Secret decoded as base64': {
      header: () => `sha256=${hmac(Buffer.from(ex.secret, 'base64'), payload).digest('hex')}`,
      reason: 'signature_mismatch',
    },
    'Uppercase hex': { header: () => `sha256=${hex.toUpperCase()}`, reason: 'malformed_signature' },
    'Body alone': { header: () => `sha256=${hmac(utf8Key, ex.body).digest('hex')}`, reason: 'signature_mismatch' },
    'Missing prefix': { header: () => hex, reason: 'malformed_signature' },
  };

  const rows = tableRows(markedBlock(guide, 'guide-test:mistakes').content).map((cells) => ({
    name: cells[0]!,
    value: /^`([^`]+)`$/.exec(cells.at(-1)!)?.[1],
  }));

  it('when the table is read, then it has exactly the rows this test can recompute', () => {
    expect(rows.map((r) => r.name).sort()).toEqual(Object.keys(mistakes).sort());
  });

  for (const [name, mistake] of Object.entries(mistakes)) {
    it(`when the mistake "${name}" is made, then it gives the value in the table, and verifyWebhook rejects it (${mistake.reason})`, () => {
      const row = rows.find((r) => r.name === name);
      expect(row?.value).toBe(mistake.header());
      expect(row!.value).not.toBe(ex.signature);
      const verdict = verifyWebhook(ex.body, headersFor(row!.value!), ex.secret, { now: nowNear(0) });
      expect(verdict).toMatchObject({ ok: false, reason: mistake.reason });
    });
  }
});

describe('docs/guides/verifying-webhooks.md: retry schedule', () => {
  it('when the table between the describeSchedule markers is compared with describeSchedule(), then they are equal', () => {
    expect(between(guide, 'describeSchedule').trim()).toBe(describeSchedule().trim());
  });
});
