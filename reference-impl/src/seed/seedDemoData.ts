import type { AssetFileStore } from '../assets/fileStore.ts';
import { generateTokenValue, hashToken } from '../auth/tokenHash.ts';
import { loadDataOverrides, loadDemoAccounts } from '../dictionary/loadData.ts';
import { STORED_WF_STATUSES } from '../domain/workflow.ts';
import type { Role } from '../http/principal.ts';
import { writeItem, type ItemWriteDeps, type ItemWriter } from '../items/writeItem.ts';
import type { Db } from '../storage/db.ts';
import { claimAccount } from '../storage/accounts/claimAccount.ts';
import { insertAccount } from '../storage/accounts/insertAccount.ts';
import { isStoreEmpty } from '../storage/accounts/isStoreEmpty.ts';
import { listDemoTokens } from '../storage/tokens/listDemoTokens.ts';
import { setTokenHash } from '../storage/tokens/setTokenHash.ts';
import { seedDemoUsers, type DemoUser } from '../sessions/seedDemoUsers.ts';
import { seedOntologyOverrides } from '../storage/dictionary/seedOntologyOverrides.ts';
import { ensureToken } from '../storage/tokens/ensureToken.ts';
import { seedDemoAssets } from './demoAssets.ts';
import { demoItems } from './demoItems.ts';
import { SYSTEM_ACCOUNT } from './systemAccount.ts';

// Demo data for `npm start`: the demo accounts and their ontology overrides, a token of each kind
// items of every entity type in every status, and a few images (assets) of the first account. Only into an EMPTY store, so a restart never
// duplicates or overwrites anything, and never into a store someone already uses. On later starts
// the demo tokens (flagged `demo` in storage; never a token a user created, whatever its name) get
// new values, printed again: only hashes are stored, so the old values cannot be shown, and the
// quick start must always print a token that works.

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
  /** Assets of the first demo account; 0 without an asset store. */
  assets: number;
  /** Users for `POST /auth/signin`, an editor and an admin per account; passwords shown only now. */
  users: DemoUser[];
}

const DEMO_TOKEN_PREFIX = 'demo ';

/** The item writer of the seed: every organisation, as a super admin. */
const SEED_WRITER: ItemWriter = { organisations: 'all', accountOrganisations: [], wfstatus: 'all' };

export async function seedDemoData(
  db: Db,
  deps: ItemWriteDeps,
  options: { assetStore?: AssetFileStore } = {},
): Promise<SeedResult> {
  if (!(await isStoreEmpty(db)))
    return { seeded: false, tokens: await reissueDemoTokens(db), items: 0, assets: 0, users: [] };
  // Of several instances starting on one empty database, only the one that claims the system
  // account seeds; the others start with what it writes.
  if (!(await claimAccount(db, SYSTEM_ACCOUNT))) return { seeded: false, tokens: [], items: 0, assets: 0, users: [] };
  const systemAccount = SYSTEM_ACCOUNT.id;

  const accounts = loadDemoAccounts();
  for (const account of accounts) await insertAccount(db, account);
  await seedOntologyOverrides(db, loadDataOverrides());

  const [first] = accounts;
  if (first === undefined) throw new Error('demoAccounts.yaml holds no account');
  const planned: Array<Omit<DemoToken, 'token'> & { wfstatus: readonly string[] | null }> = [
    {
      label: 'live consumer',
      accountId: first.id,
      roles: ['ROLE_EXTERNAL_USER'],
      wfstatus: null,
      scope: `approved items of ${first.organisations.join(', ')}`,
    },
    {
      label: 'sync (sees archived and deleted)',
      accountId: first.id,
      roles: ['ROLE_EXTERNAL_USER'],
      wfstatus: STORED_WF_STATUSES,
      scope: `every status of ${first.organisations.join(', ')}`,
    },
    ...accounts.map((account) => ({
      label: `admin of ${account.id}`,
      accountId: account.id,
      roles: ['ROLE_ADMIN'] as Role[],
      wfstatus: STORED_WF_STATUSES,
      scope: `every status of ${account.organisations.join(', ')}`,
    })),
    {
      label: 'super admin',
      accountId: systemAccount,
      roles: ['ROLE_SUPER_ADMIN'],
      wfstatus: null,
      scope: 'every organisation and status',
    },
  ];
  const tokens: DemoToken[] = [];
  for (const { wfstatus, ...token } of planned) {
    const value = generateTokenValue();
    await ensureToken(db, {
      accountId: token.accountId,
      name: `${DEMO_TOKEN_PREFIX}${token.label}`,
      roles: token.roles,
      tokenHash: hashToken(value),
      filterWfstatus: wfstatus,
      demo: true,
    });
    tokens.push({ ...token, token: value });
  }

  const users = await seedDemoUsers(db, { accountIds: accounts.map((account) => account.id) });

  let items = 0;
  for (const item of demoItems()) {
    await writeItem(db, deps, { collection: item.collection, writer: SEED_WRITER, body: item.body });
    items++;
  }
  const assets = options.assetStore === undefined ? 0 : await seedDemoAssets(db, options.assetStore, first.id);
  return { seeded: true, tokens, items, assets, users };
}

/** New values for the demo tokens of an earlier seed; empty when there are none. */
async function reissueDemoTokens(db: Db): Promise<DemoToken[]> {
  const organisationsOf = new Map(loadDemoAccounts().map((account) => [account.id, account.organisations.join(', ')]));
  const tokens: DemoToken[] = [];
  for (const row of await listDemoTokens(db)) {
    const value = generateTokenValue();
    await setTokenHash(db, { id: row.id, tokenHash: hashToken(value) });
    const roles = row.roles as Role[];
    const organisations = organisationsOf.get(row.account_id) ?? row.account_id;
    const scope = roles.includes('ROLE_SUPER_ADMIN')
      ? 'every organisation and status'
      : row.filter_wfstatus === null
        ? `approved items of ${organisations}`
        : `every status of ${organisations}`;
    tokens.push({
      label: row.name.startsWith(DEMO_TOKEN_PREFIX) ? row.name.slice(DEMO_TOKEN_PREFIX.length) : row.name,
      token: value,
      accountId: row.account_id,
      roles,
      scope,
    });
  }
  return tokens;
}
