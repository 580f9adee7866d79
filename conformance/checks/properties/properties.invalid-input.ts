import fc from 'fast-check';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { invalidBody } from '../../arbitraries/invalidBody.ts';
import { invalidQuery } from '../../arbitraries/invalidQuery.ts';
import { assertProperty } from '../../support/property.ts';
import { COLLECTIONS } from '../../support/collections.ts';
import type { HttpResponse } from '../../http/httpClient.ts';
import { writerToken } from '../../support/organisations.ts';

const DECISIONS = [
  'DEC-LIST-001',
  'DEC-LIST-002',
  'DEC-LIST-003',
  'DEC-LIST-004',
  'DEC-LIST-005',
  'DEC-LIST-006',
  'DEC-LIST-007',
  'DEC-LIST-008',
  'DEC-ITEM-010',
  'DEC-ERR-001',
  'DEC-ERR-003',
  'DEC-ITEM-005',
  'DEC-ITEM-008',
  'DEC-ITEM-015',
  'DEC-ITEM-019',
  'DEC-ITEM-022',
  'DEC-ITEM-024',
  'DEC-ITEM-028',
  'DEC-ITEM-021',
  'DEC-ITEM-023',
];

export default defineCheck({
  id: 'properties.invalid-input',
  title:
    'Property: any invalid list query (wrong type, out-of-range size or page, bad enum, bad timestamp, unknown parameter) or invalid item body (malformed JSON, wrong Content-Type, wrong type, unknown field, broken limit or rule) gets a documented 400 in the error shape, never a 5xx and never a 2xx',
  requirements: DECISIONS,
  tags: ['errors', 'property', 'write'],
  needs: ['write'],
  writes:
    'nothing on a conforming target; an invalid body a target accepts anyway is tagged with the run id and soft-deleted',
  run: async (ctx) => {
    const token = writerToken(ctx);
    const decorate = (body: Record<string, unknown>) => {
      const tag = ctx.tag('invalid');
      return {
        trcid: tag,
        slug: tag,
        ...body,
        ...(body.trcItemDetails ? {} : { trcItemDetails: [{ lang: 'nl', title: tag }] }),
      };
    };
    const request = fc.constantFrom(...COLLECTIONS).chain((c) =>
      fc.oneof(
        invalidQuery({ collection: c.path }).map((q) => ({ kind: 'query' as const, path: c.path, ...q })),
        invalidBody({ entitytype: c.entitytype, decorate }).map((b) => ({ kind: 'body' as const, path: c.path, ...b })),
      ),
    );
    await assertProperty(
      ctx,
      fc.asyncProperty(request, async (input) => {
        let res: HttpResponse;
        if (input.kind === 'query') {
          res = await ctx.http.get(input.path, { token, query: input.query, validate: 'defer' });
        } else {
          res = await ctx.http.post(input.path, {
            token,
            body: input.text,
            headers: { 'content-type': input.contentType },
            validate: 'defer',
          });
          const id = (res.body as { id?: unknown } | undefined)?.id;
          if (res.status < 300 && typeof id === 'string') ctx.cleanup.softDelete(`${input.path}/${id}`, token);
        }
        if (res.status !== 400) {
          throw new CheckFailure({
            message: `${input.kind === 'query' ? `GET ${input.path}?${new URLSearchParams(input.query)}` : `POST ${input.path}`} (${input.reason}) answered ${res.status}`,
            received: res.status,
            expected: `400 (${input.decision})`,
            pointer: 'status',
            requirements: [input.decision],
            exchanges: [res.exchange],
          });
        }
        res.assertConforms([input.decision, 'DEC-ERR-001']);
      }),
    );
  },
});
