import { WORKFLOW_STATUS } from '../../../generated/constants.ts';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import type { Delivery } from '../../receiver/receiver.ts';
import { createItem } from '../../support/items.ts';
import { tokensPath } from '../../support/tokens.ts';
import {
  assertDeliveryHeadersDecided,
  assertRetriesOfOneDelivery,
  callbackId,
  collectAttempts,
  deliveryFailure,
  disposing,
  hookToken,
  timing,
  waitForCallback,
} from '../../support/webhooks.ts';
import type { HookToken } from '../../support/webhooks.ts';

/**
 * The first two 5xx answers are held this long, so that the attempts spread over about 2 s even
 * with a test deployment's short retry schedule and a reused timestamp shows; well under the
 * interface's 5 s budget.
 */
const FAIL_AFTER_MS = 600;
/** Attempts beyond the second are minutes away on a real deployment: wait for them this long at most. */
const OPTIONAL_WAIT_MS = 5_000;

interface Scenario {
  name: string;
  hook: HookToken;
  /** Attempts expected; the later ones may be outside --webhook-wait on a real deployment (minutes apart). */
  attempts: number;
  /** Attempts that must arrive for the scenario to prove a retry. */
  required: number;
}

export default defineCheck({
  id: 'retries.transient',
  title:
    'A 5xx, a timeout and a connection error are retried, with the same X-Service-Delivery, signed afresh, the same body',
  requirements: ['HOOK-018', 'HOOK-012', 'HOOK-010', 'HOOK-013', 'DEC-HOOK-008', 'DEC-HOOK-007'],
  tags: ['webhooks', 'retries'],
  needs: ['webhook'],
  writes: 'three tokens with a callBackUrl (deleted at once) and one event (soft-deleted)',
  dependsOn: ['webhooks.delivery-signed'],
  run: async (ctx) => {
    const { waitMs, slowMs } = timing(ctx);
    const fiveXx = await hookToken(ctx, '5xx');
    const slow = await hookToken(ctx, 'timeout');
    const hangUp = await hookToken(ctx, 'hang-up');
    fiveXx.endpoint.respondWith([
      { status: 500, delayMs: FAIL_AFTER_MS },
      { status: 503, delayMs: FAIL_AFTER_MS },
      500,
      200,
    ]);
    slow.endpoint.respondWith([{ status: 200, delayMs: slowMs }, 200]);
    hangUp.endpoint.respondWith([{ status: 200, hangUp: true }, 200]);
    const scenarios: Scenario[] = [
      { name: '500, 503, 500, then 200', hook: fiveXx, attempts: 4, required: 2 },
      {
        name: `an answer held ${slowMs} ms (--webhook-slow), beyond the sender's timeout`,
        hook: slow,
        attempts: 2,
        required: 2,
      },
      { name: 'the connection closed without an answer', hook: hangUp, attempts: 2, required: 2 },
    ];

    await disposing(
      scenarios.map((s) => s.hook),
      async () => {
        const event = await createItem(ctx, '/events', { wfstatus: WORKFLOW_STATUS.approved }, { label: 'hook-retry' });
        const id = callbackId(event.id, '/events', 'UPDATED');
        const results = await Promise.all(
          scenarios.map(async (s) => {
            const { delivery } = await waitForCallback(ctx, s.hook, id, ['HOOK-018']);
            return {
              s,
              attempts: await collectAttempts(s.hook.endpoint, delivery, id, s.attempts, waitMs, {
                required: s.required,
                optionalWaitMs: OPTIONAL_WAIT_MS,
              }),
            };
          }),
        );

        for (const { s, attempts } of results) {
          if (attempts.length < s.required) {
            throw deliveryFailure(
              {
                message: `the receiver answered the first attempt with ${s.name.split(',')[0]}: a transient failure, but no retry came within ${waitMs} ms (--webhook-wait)`,
                received: `${attempts.length} attempt(s)`,
                expected: `a retry of the delivery (the interface's backoff starts at about 5 s)`,
                requirements: ['HOOK-018'],
              },
              attempts,
            );
          }
        }
        for (const { s, attempts } of results) {
          const gaps = attempts
            .slice(1)
            .map((a, i) => `${((a.receivedAt - attempts[i]!.receivedAt) / 1000).toFixed(1)} s`);
          ctx.note(`${s.name}: ${attempts.length} attempts, ${gaps.join(' and ')} apart (arrival to arrival)`);
          if (attempts.length < s.attempts)
            ctx.note(
              `${s.name}: attempt ${attempts.length + 1} did not come within ${Math.min(waitMs, OPTIONAL_WAIT_MS)} ms; the interface's backoff may put it minutes later`,
            );
        }
        ctx.verified(['HOOK-018']);
        for (const { attempts, s } of results) assertRetriesOfOneDelivery(ctx, attempts, s.hook.secret);
        for (const { attempts } of results) for (const a of attempts) assertDeliveryHeadersDecided(a);

        // DEC-HOOK-007: the delivery log shows the attempts of the 5xx scenario.
        const first = results[0]!.attempts[0]!;
        await assertDeliveryLog(ctx, fiveXx, first, results[0]!.attempts.length);
      },
    );
  },
});

async function assertDeliveryLog(
  ctx: Parameters<Parameters<typeof defineCheck>[0]['run']>[0],
  hook: HookToken,
  first: Delivery,
  attempts: number,
): Promise<void> {
  const res = await ctx.http.get(tokensPath(ctx, hook.id, '/deliveries'), { token: 'admin', validate: 'defer' });
  const list = Array.isArray(res.body) ? (res.body as { id?: string; state?: string; attempts?: unknown[] }[]) : [];
  const entry = list.find((d) => d.id === first.headers['x-service-delivery']);
  if (res.status !== 200 || !entry || !Array.isArray(entry.attempts) || entry.attempts.length < attempts) {
    throw new CheckFailure({
      message: `GET …/deliveries does not list the delivery ${first.headers['x-service-delivery']} with its ${attempts} attempts`,
      received: res.status === 200 ? (entry ?? `${list.length} deliveries, not this one`) : res.status,
      expected: `the delivery with ${attempts} attempts`,
      requirements: ['DEC-HOOK-007'],
      exchanges: [res.exchange],
    });
  }
  res.assertConforms(['DEC-HOOK-007']);
}
