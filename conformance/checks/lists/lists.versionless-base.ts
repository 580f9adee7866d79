import { defineCheck } from '../../model/check.ts';
import { CheckFailure } from '../../model/failure.ts';
import { assertStatus } from '../../support/assert.ts';

export default defineCheck({
  id: 'lists.versionless-base',
  title: 'The base address ends in /api and carries no version number in its path, and the collections answer under it',
  requirements: ['VER-001'],
  tags: ['lists', 'versioning'],
  needs: ['consumer'],
  run: async (ctx) => {
    const path = new URL(ctx.config.baseUrl!).pathname.replace(/\/+$/, '');
    const versioned = path.split('/').find((s) => /^v\d+(\.\d+)*$/i.test(s));
    if (!path.endsWith('/api') || versioned) {
      throw new CheckFailure({
        message: `the base address ${ctx.config.baseUrl} ${versioned ? `has the version segment ${versioned}` : 'does not end in /api'}`,
        received: path || '/',
        expected: 'a path ending in /api without a version segment',
        pointer: 'base-url',
      });
    }
    assertStatus(await ctx.http.get('/events', { query: { size: 1 } }), 200);
  },
});
