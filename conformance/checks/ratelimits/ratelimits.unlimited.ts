import type { HttpResponse } from '../../http/httpClient.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { acknowledge, assertStatus } from '../../support/assert.ts';
import { filePath } from '../../support/assets.ts';
import type { Asset } from '../../support/assets.ts';
import { burst, describeCounts, sendAll } from '../../support/ratelimits.ts';

const DRAIN = 100;
/**
 * Concurrent detail reads, and /assets reads: far more than a list's allowance (burst 40 above
 * 20 a second), so a limiter on these endpoints shows even with a burst several times larger.
 */
const READS = 150;
/** Requests outstanding at once: a target may cap the connections of one client. */
const IN_FLIGHT = 48;

export default defineCheck({
  id: 'ratelimits.unlimited',
  title:
    'With the list budget drained, detail reads, route downloads, /assets and /actuator/health are still never throttled',
  requirements: ['DETAIL-002', 'RATE-005', 'HEALTH-001', 'DEC-ITEM-027'],
  tags: ['rate-limit'],
  needs: ['consumer'],
  order: 'last',
  run: async (ctx) => {
    // Targets first, while the budget is not drained; a token that sees every status finds more.
    const token = ctx.tokens.full ? 'full' : 'consumer';
    const events = await ctx.http.get('/events', { token, query: { size: 1 } });
    assertStatus(events, 200);
    const eventId = (events.body as { id?: unknown }[])[0]?.id;
    const routes = await ctx.http.get('/routes', { token, query: { size: 1 } });
    const routeId = Array.isArray(routes.body) ? (routes.body as { id?: unknown }[])[0]?.id : undefined;
    const assets = await ctx.http.get('/assets', { query: { size: 1 } });
    const asset = (assets.body as { results?: Asset[] } | undefined)?.results?.[0];

    const drain = await burst(ctx, DRAIN);
    acknowledge(drain);
    if (!drain.some((r) => r.status === 429)) {
      ctx.note(
        `${DRAIN} concurrent list requests were not throttled (${describeCounts(drain)}); ratelimits.burst judges that, and the reads below prove less`,
      );
    }
    const probes: { what: string; requirement: string; send: () => Promise<HttpResponse> }[] = [];
    const times = (n: number, what: string, requirement: string, send: () => Promise<HttpResponse>) => {
      for (let i = 0; i < n; i++) probes.push({ what, requirement, send });
    };
    if (typeof eventId === 'string')
      times(READS, `GET /events/${eventId}`, 'DETAIL-002', () =>
        ctx.http.get(`/events/${encodeURIComponent(eventId)}`, { token, on429: 'return', validate: 'defer' }),
      );
    else ctx.unverified(['DETAIL-002'], 'the token lists no event to read');
    times(20, 'GET /actuator/health', 'HEALTH-001', () =>
      ctx.http.get('/actuator/health', { token: 'none', on429: 'return', validate: 'defer' }),
    );
    times(READS, 'GET /assets', 'RATE-005', () =>
      ctx.http.get('/assets', { query: { size: 1 }, on429: 'return', validate: 'defer' }),
    );
    if (asset)
      times(10, `GET ${filePath(asset)}`, 'RATE-005', () =>
        ctx.http.get(filePath(asset), { headers: { accept: '*/*' }, on429: 'return', validate: 'defer' }),
      );
    if (typeof routeId === 'string') {
      times(10, `GET /routes/${routeId}/geojson`, 'DEC-ITEM-027', () =>
        ctx.http.get(`/routes/${encodeURIComponent(routeId)}/geojson`, {
          token,
          headers: { accept: 'application/geo+json, application/json' },
          on429: 'return',
          validate: 'defer',
        }),
      );
      times(10, `GET /routes/${routeId}/gpx`, 'DEC-ITEM-027', () =>
        ctx.http.get(`/routes/${encodeURIComponent(routeId)}/gpx`, {
          token,
          headers: { accept: 'application/gpx+xml, application/xml' },
          on429: 'return',
          validate: 'defer',
        }),
      );
    } else ctx.unverified(['DEC-ITEM-027'], 'the token lists no route to download');

    const answers = await sendAll(
      probes.map((p) => p.send),
      IN_FLIGHT,
    );
    ctx.note(
      `with the list budget drained (${describeCounts(drain)}), ${probes.length} unlimited reads, ${IN_FLIGHT} at a time: ${describeCounts(answers)}`,
    );
    const order = ['DETAIL-002', 'HEALTH-001', 'RATE-005', 'DEC-ITEM-027'];
    for (const requirement of order) {
      const i = answers.findIndex((r, k) => probes[k]!.requirement === requirement && r.status === 429);
      if (i >= 0) {
        throw new CheckFailure({
          message: `${probes[i]!.what} answered 429 while the list budget was drained: it is not rate limited`,
          received: 429,
          expected: 'never 429',
          pointer: 'status',
          requirements:
            requirement === 'DETAIL-002'
              ? ['DETAIL-002', 'RATE-005']
              : requirement === 'HEALTH-001'
                ? ['HEALTH-001', 'RATE-005']
                : [requirement],
          exchanges: [answers[i]!.exchange],
        });
      }
      ctx.verified(
        requirement === 'DETAIL-002' ? ['DETAIL-002'] : requirement === 'HEALTH-001' ? ['HEALTH-001'] : [requirement],
      );
    }
    for (const [k, r] of answers.entries()) {
      if (r.status !== 200)
        throw new CheckFailure({
          message: `${probes[k]!.what} answered ${r.status}`,
          received: r.status,
          expected: 200,
          pointer: 'status',
          requirements: [probes[k]!.requirement],
          exchanges: [r.exchange],
        });
    }
    acknowledge(answers);
  },
});
