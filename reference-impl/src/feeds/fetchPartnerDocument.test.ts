import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedFetchError, fetchPartnerDocument } from './fetchPartnerDocument.ts';
import { readPartnerEntries } from './partnerEntries.ts';
import { startPartnerServer, type PartnerServer } from '../../test/support/feeds/partnerServer.ts';

describe('fetchPartnerDocument', () => {
  let partner: PartnerServer;
  beforeAll(async () => {
    partner = await startPartnerServer();
  });
  afterAll(() => partner.close());

  it('when the partner certificate is trusted through the feed CA, then the JSON document arrives over HTTPS [FEED-008] [DEC-FEED-001]', async () => {
    partner.serve('/ok.json', { body: { entries: [{ id: 'a' }] } });
    expect(await fetchPartnerDocument(partner.url('/ok.json'), { ca: partner.cert })).toEqual({
      entries: [{ id: 'a' }],
    });
  });

  it('when the certificate is not trusted, then the fetch fails with a TLS reason', async () => {
    partner.serve('/ok.json', { body: { entries: [] } });
    const error = await fetchPartnerDocument(partner.url('/ok.json')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FeedFetchError);
    expect((error as Error).message).toMatch(
      /^fetching https:\/\/127\.0\.0\.1:\d+\/ok\.json failed: .*(certificate|self.signed)/i,
    );
  });

  it('when the partner answers an error status, then the message names it', async () => {
    partner.serve('/down.json', { status: 502, body: 'Bad gateway' });
    await expect(fetchPartnerDocument(partner.url('/down.json'), { ca: partner.cert })).rejects.toThrow(
      /failed: status 502$/,
    );
  });

  it('when the body is not JSON, then the message says so', async () => {
    partner.serve('/broken.json', { body: '{"entries": [' });
    await expect(fetchPartnerDocument(partner.url('/broken.json'), { ca: partner.cert })).rejects.toThrow(
      /is not valid JSON/,
    );
  });

  it('when the document is larger than the limit, then the fetch stops with the limit named', async () => {
    partner.serve('/big.json', { body: { entries: Array.from({ length: 200 }, (_, i) => ({ id: `e${i}` })) } });
    await expect(
      fetchPartnerDocument(partner.url('/big.json'), { ca: partner.cert, limits: { maxBytes: 1000 } }),
    ).rejects.toThrow(/above the limit of 1000|exceeds the limit of 1000 bytes/);
  });

  it('when the partner does not answer in time, then the fetch fails with the timeout named', async () => {
    partner.serve('/slow.json', { body: { entries: [] }, delayMs: 2000 });
    const started = Date.now();
    await expect(
      fetchPartnerDocument(partner.url('/slow.json'), { ca: partner.cert, limits: { headersTimeoutMs: 200 } }),
    ).rejects.toThrow(/no response headers within 200 ms/);
    expect(Date.now() - started).toBeLessThan(1500);
  });
});

describe('readPartnerEntries', () => {
  it('when the document is not {entries: [...]}, then it is refused with what was received [DEC-FEED-001]', () => {
    expect(() => readPartnerEntries([{ id: 'a' }], { url: 'https://p.example/x' })).toThrow(
      /expected a JSON object \{entries: \[\.\.\.\]\} \(DEC-FEED-001\), received an array/,
    );
    expect(() => readPartnerEntries({ items: [] }, { url: 'https://p.example/x' })).toThrow(
      /received an object with items/,
    );
  });

  it('when entries carry string or integer ids and feedInfoIds, then they are read in order', () => {
    const entries = readPartnerEntries(
      { entries: [{ id: ' ev-1 ', feedInfoId: 'musea' }, { id: 42 }, { title: 'no id' }, 'junk'] },
      { url: 'https://p.example/x' },
    );
    expect(entries.map((e) => [e.partnerId, e.feedInfoId])).toEqual([
      ['ev-1', 'musea'],
      ['42', undefined],
      [undefined, undefined],
      [undefined, undefined],
    ]);
    expect(entries[2]!.position).toBe('entries[2] of https://p.example/x');
    const forced = readPartnerEntries(
      { entries: [{ id: 'x', feedInfoId: 'other' }] },
      { url: 'https://p.example/y', forcedFeedInfoId: 'festivals' },
    );
    expect(forced[0]!.feedInfoId).toBe('festivals');
  });
});
