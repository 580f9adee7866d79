import { generateTokenValue, hashToken } from '../auth/tokenHash.ts';
import { loadDemoAccounts } from '../dictionary/loadData.ts';
import type { Role } from '../http/principal.ts';
import { writeItem, type ItemWriteDeps, type ItemWriter } from '../items/writeItem.ts';
import type { Db } from '../storage/db.ts';
import { insertAccount } from '../storage/accounts/insertAccount.ts';
import { isStoreEmpty } from '../storage/accounts/isStoreEmpty.ts';
import { seedDemoUsers, type DemoUser } from '../sessions/seedDemoUsers.ts';
import { seedOntologyOverrides } from '../storage/dictionary/seedOntologyOverrides.ts';
import { ensureToken } from '../storage/tokens/ensureToken.ts';
import { demoItems } from './demoItems.ts';
import { ensureSystemAccount } from './systemAccount.ts';

// Demo data for `npm start`: the demo accounts and their ontology overrides, a token of each kind
// and items of every entity type in every status. Only into an EMPTY store, so a restart never
// duplicates or overwrites anything, and never into a store someone already uses.

export interface DemoToken {
  label: string;
  /** The value: shown once, at seeding; only its hash is stored (DEC-AUTH-006). */
  token: string;
  accountId: string;
  roles: readonly Role[];
  /** What the token sees, for the start-up message. */
  scope: string;
}

export interface SeedResult {
  seeded: boolean;
  tokens: DemoToken[];
  items: number;
  /** Users for `POST /auth/signin`, an editor and an admin per account; passwords shown only now. */
  users: DemoUser[];
}

const ALL_STATUSES = ['readyforvalidation', 'approved', 'rejected', 'archived', 'deleted'] as const;

/** The item writer of the seed: every organisation, as a super admin. */
const SEED_WRITER: ItemWriter = { organisations: 'all', accountOrganisations: [], wfstatus: 'all' };

export async function seedDemoData(db: Db, deps: ItemWriteDeps): Promise<SeedResult> {
  if (!(await isStoreEmpty(db))) return { seeded: false, tokens: [], items: 0, users: [] };

  const accounts = loadDemoAccounts();
  for (const account of accounts) await insertAccount(db, account);
  await seedOntologyOverrides(db);
  const systemAccount = await ensureSystemAccount(db);

  const [first] = accounts;
  if (first === undefined) throw new Error('demoAccounts.yaml holds no account');
  const planned: Array<Omit<DemoToken, 'token'> & { wfstatus: readonly string[] | null }> = [
    { label: 'live consumer', accountId: first.id, roles: ['ROLE_EXTERNAL_USER'], wfstatus: null, scope: `approved items of ${first.organisations.join(', ')}` },
    { label: 'sync (sees archived and deleted)', accountId: first.id, roles: ['ROLE_EXTERNAL_USER'], wfstatus: ALL_STATUSES, scope: `every status of ${first.organisations.join(', ')}` },
    ...accounts.map((account) => ({ label: `admin of ${account.id}`, accountId: account.id, roles: ['ROLE_ADMIN'] as Role[], wfstatus: ALL_STATUSES, scope: `every status of ${account.organisations.join(', ')}` })),
    { label: 'super admin', accountId: systemAccount, roles: ['ROLE_SUPER_ADMIN'], wfstatus: null, scope: 'every organisation and status' },
  ];
  const tokens: DemoToken[] = [];
  for (const { wfstatus, ...token } of planned) {
    const value = generateTokenValue();
    await ensureToken(db, { accountId: token.accountId, name: `demo ${token.label}`, roles: token.roles, tokenHash: hashToken(value), filterWfstatus: wfstatus });
    tokens.push({ ...token, token: value });
  }

  const users = await seedDemoUsers(db, { accountIds: accounts.map((account) => account.id) });

  let items = 0;
  for (const item of demoItems()) {
    await writeItem(db, deps, { collection: item.collection, writer: SEED_WRITER, body: item.body });
    items++;
  }
  return { seeded: true, tokens, items, users };
}
