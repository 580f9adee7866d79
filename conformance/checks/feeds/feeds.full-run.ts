import type { HttpResponse } from '../../http/httpClient.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { acknowledge } from '../../support/assert.ts';
import { feed, feedEvent, findImported, followRun, partnerId, runBound } from '../../support/feeds.ts';
import type { FeedRunReport } from '../../support/feeds.ts';

// FEED-007: without size the run is a full one, and asynchronous. The partner holds its answer
// for a while, so a synchronous target could answer only after the partner did; an asynchronous
// one answers first. Every entry is imported in the end. DEC-FEED-002: 202 with the running run
// and a Location to follow it; DEC-FEED-004: a second run of the feed meanwhile is a 409.

const PARTNER_DELAY_MS = 1500;

export default defineCheck({
  id: 'feeds.full-run',
  title:
    'fetchAndConvertOnce without size starts a full asynchronous run: it answers (202, Location) before the partner document arrives, a second run meanwhile is a 409, and the run followed to its end imported every entry',
  requirements: ['FEED-007', 'DEC-FEED-002', 'DEC-FEED-004'],
  tags: ['feeds'],
  needs: ['feed'],
  writes: 'three events imported through the feed (partner ids tagged with the run id)',
  run: async (ctx) => {
    const { partner, path } = feed(ctx);
    const ids = ['a', 'b', 'c'].map((l) => partnerId(ctx, `full-${l}`));
    partner.serve(
      ids.map((id) => feedEvent(id)),
      { delayMs: PARTNER_DELAY_MS },
    );

    const sentAt = Date.now();
    const res = await ctx.http.post(path, { token: 'admin', validate: 'defer' });
    const answeredAt = Date.now();
    if (res.status !== 200 && res.status !== 202) {
      throw new CheckFailure({
        message: `POST ${path} (no size: a full run) answered ${res.status}`,
        received: res.status,
        expected: '202 (the run started)',
        pointer: 'status',
        requirements: ['FEED-007'],
        exchanges: [res.exchange],
      });
    }
    res.assertConforms(['DEC-FEED-002']);
    const first = res.body as FeedRunReport;
    // Asynchronous: the answer shows the run still going (the partner holds the document, so a
    // run cannot have ended yet unless the target waited for it).
    if (first.status !== 'running') {
      const fetch = partner.requests.find((r) => r.receivedAt >= sentAt && r.status === 200);
      const waited = fetch?.answeredAt !== undefined && fetch.answeredAt <= answeredAt;
      throw new CheckFailure({
        message: `POST ${path} without size answered with the run ${String(first.status)}${waited ? ', after the partner document had arrived' : ''}: a full run is asynchronous`,
        received: { status: res.status, run: first.status, answeredAfterMs: answeredAt - sentAt },
        expected: `an answer while the run is running (the partner held its document ${PARTNER_DELAY_MS} ms)`,
        pointer: '/status',
        requirements: ['FEED-007'],
        exchanges: [res.exchange],
      });
    }

    // While it runs: a second run of the feed is refused.
    const secondSentAt = Date.now();
    const second = await ctx.http.post(path, { query: { size: 1 }, token: 'admin', validate: 'defer' });
    // The first run was surely still running if the partner had not yet answered its fetch.
    const firstFetch = partner.requests.find((r) => r.receivedAt >= sentAt && r.status === 200);
    const stillRunning = firstFetch?.answeredAt === undefined || firstFetch.answeredAt > secondSentAt;

    // Follow it to its end.
    const polls: HttpResponse[] = [];
    const report = await followRun(ctx, res, first, polls, { requirements: ['FEED-007'] }, ['DEC-FEED-002']);
    if (report.status !== 'completed') {
      throw new CheckFailure({
        message: `the full run ended ${String(report.status)}: ${report.errors?.[0]?.message ?? 'no error given'}`,
        received: report.status,
        expected: 'completed',
        pointer: '/status',
        requirements: ['FEED-007'],
        exchanges: [res.exchange, polls.at(-1)!.exchange],
      });
    }
    const found = await findImported(ctx, runBound(ctx, sentAt, first), ids, ['FEED-007']);
    const missing = ids.filter((id) => !found.items.has(id));
    if (missing.length > 0) {
      throw new CheckFailure({
        message: `the full run did not import ${missing.join(', ')} (${missing.length} of ${ids.length} entries); run: ${JSON.stringify(report.imported)}, errors ${JSON.stringify(report.errors.slice(0, 2))}`,
        received: [...found.items.keys()],
        expected: ids,
        requirements: ['FEED-007'],
        exchanges: [res.exchange, polls.at(-1)!.exchange, found.res.exchange],
      });
    }
    ctx.verified(['FEED-007']);

    // Decisions: 202 + Location + the running run, followed to completed; 409 for the second run.
    if (
      res.status !== 202 ||
      res.headers.location === undefined ||
      report.runId !== first.runId ||
      report.finishedAt === undefined
    ) {
      throw new CheckFailure({
        message:
          'the full run was not answered 202 with a Location to the run, or the run followed there is not the one started',
        received: {
          status: res.status,
          location: res.headers.location ?? '(absent)',
          runId: first.runId,
          followed: report.runId,
          finishedAt: report.finishedAt,
        },
        expected: { status: 202, location: '…/feeds/{feedID}/runs/{runId}', followed: first.runId, finishedAt: 'set' },
        requirements: ['DEC-FEED-002'],
        exchanges: [res.exchange, polls.at(-1)!.exchange],
      });
    }
    if (second.status !== 409) {
      acknowledge([second]);
      if (stillRunning) {
        throw new CheckFailure({
          message: `a second run of the feed while the first was running answered ${second.status}`,
          received: second.status,
          expected: 409,
          pointer: 'status',
          requirements: ['DEC-FEED-004'],
          exchanges: [second.exchange],
        });
      }
      ctx.unverified(
        ['DEC-FEED-004'],
        'the first run had fetched the partner document before the second was asked for',
      );
      return;
    }
    second.assertConforms(['DEC-FEED-004']);
  },
});
