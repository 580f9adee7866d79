import { expect, it } from 'vitest';
import { describeEachEngine } from '../../test/support/storage/testDb.ts';
import { createTestAccount } from '../../test/support/fixtures.ts';
import { seedDemoUsers, formatDemoUsers } from './seedDemoUsers.ts';
import { signIn } from './signIn.ts';
import { TEST_SCRYPT } from '../../test/support/sessions/testUsers.ts';

describeEachEngine('seedDemoUsers', (engine) => {
  it('when seeded, then each account gets an editor and an admin who can sign in; seeding again adds no one', async () => {
    const accountIds = ['seed-a', 'seed-b'];
    for (const accountId of accountIds)
      await createTestAccount(engine.db, { accountId, organisations: [`${accountId}-org`] });
    const users = await seedDemoUsers(engine.db, { accountIds, scrypt: TEST_SCRYPT });
    expect(users.map((u) => [u.username, u.roles])).toEqual([
      ['editor@seed-a.example', ['ROLE_EXTERNAL_USER']],
      ['admin@seed-a.example', ['ROLE_ADMIN']],
      ['editor@seed-b.example', ['ROLE_EXTERNAL_USER']],
      ['admin@seed-b.example', ['ROLE_ADMIN']],
    ]);
    expect(new Set(users.map((u) => u.password)).size).toBe(4);
    expect(formatDemoUsers(users)).toContain(users[0]!.password);

    const tokens = await signIn({ db: engine.db, secret: 's'.repeat(40), now: Date.now }, users[1]!);
    expect(tokens?.token_type).toBe('Bearer');
    expect(await seedDemoUsers(engine.db, { accountIds, scrypt: TEST_SCRYPT })).toEqual([]);
  });
});
