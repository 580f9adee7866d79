import { defineCheck } from '../../model/check.ts';
import { assertBodyIsArray, assertStatus } from '../../support/assert.ts';
import { COLLECTIONS } from '../../support/collections.ts';

export default defineCheck({
  id: 'lists.bare-array',
  title: 'The five item collections answer a bare JSON array of TRCItems',
  requirements: ['LIST-001'],
  tags: ['lists', 'smoke'],
  needs: ['consumer'],
  run: async (ctx) => {
    for (const { path } of COLLECTIONS) {
      const res = await ctx.http.get(path, { query: { size: 5 }, validate: 'defer' });
      assertStatus(res, 200);
      assertBodyIsArray(res);
      // The items' own shape (a TRCItem per the spec schema) is the remaining part of LIST-001.
      res.assertConforms();
    }
  },
});
