import { isDeepStrictEqual } from 'node:util';
import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import type { CheckContext } from '../../engine/runtime/context.ts';
import { assertStatus } from '../../support/assert.ts';
import { createItem, readItem } from '../../support/items.ts';
import { findOwnOrganisation, listUserOrganisations } from '../../support/organisations.ts';
import { propertyNodes } from '../../support/ontology.ts';
import type { Ontologies, PropertyNode } from '../../support/ontology.ts';
import { assertLabelsFilledIn, pickProperty } from '../../support/ontology.ts';

const LANGS = ['nl', 'en'];
type Onto = Ontologies['properties'];
type Category = { id: string; properties?: PropertyNode[] };

function withoutStamp(o: Onto): Omit<Onto, 'lastModified'> {
  const { lastModified: _l, ...rest } = o;
  return rest;
}

/** Apply `edit` to the property with `id` wherever it is nested; `null` removes it. */
function editProperty(onto: Onto, id: string, edit: (p: PropertyNode) => PropertyNode | null): Onto {
  const visit = (list: PropertyNode[] | undefined): PropertyNode[] | undefined =>
    list?.flatMap((p) => {
      const next = p.id === id ? edit(p) : p;
      return next === null ? [] : [{ ...next, ...(next.properties ? { properties: visit(next.properties) } : {}) }];
    });
  return {
    ...onto,
    propertyCategories: (onto.propertyCategories as Category[]).map((c) => ({
      ...c,
      properties: visit(c.properties) ?? [],
    })),
  };
}

export default defineCheck({
  id: 'ontology.rename-visible',
  title:
    "PUT /dictionary/propertiesOntology?accountId= (admin only) replaces the account's property ontology: a renamed property shows at once on an existing item, a removed one comes back without translations, an added one is listed; the original is put back at the end",
  requirements: [
    'ONTO-006',
    'ONTO-007',
    'ONTO-010',
    'ONTO-015',
    'ONTO-016',
    'ONTO-017',
    'DICT-002',
    'DICT-003',
    'DICT-004',
    'AUTH-007',
    'AUTH-008',
    'DEC-DICT-009',
    'DEC-DICT-011',
  ],
  tags: ['ontology', 'admin'],
  needs: ['write', 'admin', 'mutating'],
  writes:
    'replaces the property ontology of --account-id for a moment (the original is PUT back at the end; an account on the base ontology keeps a copy of it as its own), and one event (tagged with the run id)',
  run: async (ctx) => {
    const accountId = ctx.config.accountId!;
    const org = await findOwnOrganisation(ctx);
    const owner = (await listUserOrganisations(ctx)).find((o) => o.userorganisation === org);
    if (!org || owner?.accountId !== accountId)
      return ctx.skip(`the suite's organisation ${String(org)} does not belong to --account-id ${accountId}`);
    const path = '/dictionary/propertiesOntology';
    const query = { accountId };
    const before = await ctx.http.get(path, { token: 'admin', query });
    assertStatus(before, 200, { requirements: ['DICT-003'] });
    const original = before.body as Onto;
    const renamed = pickProperty(original, 'freetext');
    const removed = propertyNodes(original).find(
      (p) => p.deprecated !== true && p.id !== renamed?.id && !['choice', 'multichoice'].includes(p.datatype),
    );
    if (!renamed || !removed)
      return ctx.skip(
        `the property ontology of ${accountId} has no freetext property and another simple one to rename and remove`,
      );
    const restore = async (http: CheckContext['http']) => {
      const res = await http.put(path, { token: 'admin', query, json: original, validate: false });
      if (res.status !== 200) throw new Error(`PUT ${path}?accountId=${accountId} (restore) answered ${res.status}`);
    };
    ctx.cleanup.add(`put back the property ontology of account ${accountId}`, restore);

    const event = await createItem(
      ctx,
      '/events',
      {
        translations: { primaryLanguage: 'nl', availableLanguages: LANGS },
        trcItemCategories: {
          categories: [
            { catid: renamed.id, value: 'x' },
            { catid: removed.id, value: removed.datatype === 'nullableyesno' ? null : 'true' },
          ],
        },
      },
      { label: 'rename' },
    );

    // Admin only: a consumer token may not replace it (nothing changes).
    const refused = await ctx.http.put(path, { token: 'consumer', query, json: original, validate: 'defer' });
    if (refused.status < 400)
      throw new CheckFailure({
        message: `PUT ${path} with a consumer token answered ${refused.status}`,
        received: refused.status,
        expected: '401 or 403 (admin only)',
        requirements: ['AUTH-007', 'DICT-004'],
        exchanges: [refused.exchange],
      });
    refused.assertConforms(['AUTH-007', 'DICT-004']);

    const tag = `${ctx.runId} renamed`;
    const added: PropertyNode = {
      id: `${ctx.runId}-added`,
      name: `${ctx.runId} added`,
      datatype: 'freetext',
      propertytranslations: [{ lang: 'nl', text: `${ctx.runId} toegevoegd` }],
    };
    let next = editProperty(original, renamed.id, (p) => ({
      ...p,
      name: `${tag} nl`,
      propertytranslations: LANGS.map((lang) => ({ lang, text: `${tag} ${lang}` })),
    }));
    next = editProperty(next, removed.id, () => null);
    const categories = next.propertyCategories as Category[];
    categories[0] = { ...categories[0]!, properties: [...(categories[0]!.properties ?? []), added] };
    const deprecate = propertyNodes(next).find(
      (p) => p.id !== renamed.id && p.id !== added.id && p.deprecated !== true,
    );
    if (deprecate) next = editProperty(next, deprecate.id, (p) => ({ ...p, deprecated: true }));
    const { lastModified: _stamp, ...body } = next;

    try {
      const put = await ctx.http.put(path, { token: 'admin', query, json: body, validate: 'defer' });
      assertStatus(put, 200, { requirements: ['ONTO-017', 'DICT-004'] });
      put.assertConforms(['ONTO-017', 'DICT-004']);
      const after = await ctx.http.get(path, { token: 'admin', query });
      const now = after.body as Onto;
      const nodes = propertyNodes(now);
      const fail = (message: string, received: unknown, expected: unknown, requirements: string[]) => {
        throw new CheckFailure({
          message,
          received,
          expected,
          requirements,
          exchanges: [put.exchange, after.exchange],
        });
      };
      if (!nodes.some((p) => p.id === added.id))
        fail(
          `the property ${added.id} added by the replacement is not in the account's ontology`,
          nodes.map((p) => p.id),
          added.id,
          ['ONTO-016', 'ONTO-017', 'ONTO-015'],
        );
      if (nodes.some((p) => p.id === removed.id))
        fail(
          `the property ${removed.id} left out of the replacement is still in the account's ontology (a replacement is complete, not a patch)`,
          removed.id,
          '(absent)',
          ['ONTO-016', 'ONTO-017'],
        );
      if (nodes.find((p) => p.id === renamed.id)?.name !== `${tag} nl`)
        fail(
          `the property ${renamed.id} was not renamed`,
          nodes.find((p) => p.id === renamed.id),
          `${tag} nl`,
          ['ONTO-016', 'ONTO-017'],
        );
      if (now.lastModified === original.lastModified)
        fail(
          'lastModified did not change with the ontology',
          now.lastModified,
          `a value other than ${String(original.lastModified)}`,
          ['ONTO-010'],
        );
      // The override is the account's own: another account's ontology does not get it, and the
      // admin token's own ontology (no accountId) is now the override.
      const other = (await listUserOrganisations(ctx)).find((o) => o.accountId !== accountId)?.accountId;
      if (other) {
        const theirs = await ctx.http.get(path, { token: 'admin', query: { accountId: other } });
        if (propertyNodes(theirs.body as Onto).some((p) => p.id === added.id))
          throw new CheckFailure({
            message: `${path}?accountId=${other} holds the property ${added.id}, added to the ontology of ${accountId} only`,
            received: added.id,
            expected: `the ontology of ${other}, without ${added.id}`,
            requirements: ['DICT-003'],
            exchanges: [put.exchange, theirs.exchange],
          });
      } else ctx.note('only one account is listed: no other account to compare with');
      const own = await ctx.http.get(path, { token: 'admin' });
      if (!isDeepStrictEqual(own.body, now))
        throw new CheckFailure({
          message: `${path} without accountId (admin token of ${accountId}) is not the ontology just put for ${accountId}`,
          received: 'a different ontology',
          expected: `the ontology of ${accountId}`,
          requirements: ['DICT-002', 'AUTH-008'],
          exchanges: [put.exchange, own.exchange, after.exchange],
        });
      ctx.verified(['ONTO-010', 'ONTO-015', 'ONTO-016', 'ONTO-017', 'DICT-004', 'AUTH-007', 'DICT-002', 'AUTH-008']);
      if (other) ctx.verified(['DICT-003']);

      // At once, on the existing item.
      const { res, item } = await readItem(ctx, event.path, event.token);
      assertStatus(res, 200, { requirements: ['ONTO-006'] });
      res.assertConforms(['ONTO-006']);
      const entries =
        (item!.trcItemCategories as { categories?: Record<string, unknown>[] } | undefined)?.categories ?? [];
      const r = entries.find((e) => e.catid === renamed.id);
      assertLabelsFilledIn(
        r?.categoryTranslations,
        LANGS,
        (lang) => `${tag} ${lang}`,
        `${event.path}, category ${renamed.id} right after the rename`,
        [put.exchange, res.exchange],
        ['ONTO-006'],
      );
      const gone = entries.find((e) => e.catid === removed.id);
      if (!gone)
        fail(
          `${event.path}: the category ${removed.id} removed from the ontology is gone from the item`,
          entries.map((e) => e.catid),
          `${removed.id} without translations`,
          ['ONTO-007'],
        );
      const t = gone!.categoryTranslations;
      if (Array.isArray(t) ? t.length > 0 : t !== undefined)
        fail(
          `${event.path}: category ${removed.id}, no longer in the ontology, still has translations`,
          t,
          'no translations',
          // Labels the override no longer has come from elsewhere: the base, consulted after all.
          ['ONTO-007', 'ONTO-015'],
        );
      ctx.verified(['ONTO-006', 'ONTO-007']);
      if (deprecate && propertyNodes(now).find((p) => p.id === deprecate.id)?.deprecated !== true) {
        fail(
          `the property ${deprecate.id} marked deprecated is not returned with deprecated: true`,
          propertyNodes(now).find((p) => p.id === deprecate.id),
          'deprecated: true',
          ['DEC-DICT-009'],
        );
      }
      // A broken replacement is refused and changes nothing: the same property id twice.
      const twice = structuredClone(body) as Onto;
      (twice.propertyCategories as Category[])[0]!.properties!.push({ ...added });
      const broken = await ctx.http.put(path, { token: 'admin', query, json: twice, validate: 'defer' });
      if (broken.status !== 400)
        fail(`a replacement with the property id ${added.id} twice answered ${broken.status}`, broken.status, 400, [
          'DEC-DICT-011',
        ]);
      broken.assertConforms(['DEC-DICT-011']);
    } finally {
      await restore(ctx.http).catch((error: unknown) =>
        ctx.note(`restoring the ontology failed: ${(error as Error).message}; the cleanup tries again`),
      );
      const back = await ctx.http.get(path, { token: 'admin', query, validate: false }).catch(() => undefined);
      if (back && !isDeepStrictEqual(withoutStamp(back.body as Onto), withoutStamp(original)))
        ctx.note(`the property ontology of ${accountId} differs from the original after the restore`);
    }
  },
});
