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
  /** The write grant (DEC-AUTH-020). */
  canWrite: boolean;
  /** What the token sees and whether it writes, for the start-up message. */
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
const SEED_WRITER: ItemWriter = { organisations: 'all', accountOrganisations: [], wfstatus: 'all', canWrite: true };

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
  // One of each kind: readers without the write grant, a writer limited to live data, admins
  // (DEC-AUTH-020). The scope text says which may write.
  const planned: Array<Omit<DemoToken, 'token' | 'scope'> & { wfstatus: readonly string[] | null }> = [
    { label: 'live consumer', accountId: first.id, roles: ['ROLE_EXTERNAL_USER'], wfstatus: null, canWrite: false },
    { label: 'live publisher', accountId: first.id, roles: ['ROLE_EXTERNAL_USER'], wfstatus: null, canWrite: true },
    {
      label: 'sync (sees archived and deleted)',
      accountId: first.id,
      roles: ['ROLE_EXTERNAL_USER'],
      wfstatus: STORED_WF_STATUSES,
      canWrite: false,
    },
    {
      label: 'editor (every status, writes)',
      accountId: first.id,
      roles: ['ROLE_EXTERNAL_USER'],
      wfstatus: STORED_WF_STATUSES,
      canWrite: true,
    },
    ...accounts.map((account) => ({
      label: `admin of ${account.id}`,
      accountId: account.id,
      roles: ['ROLE_ADMIN'] as Role[],
      wfstatus: STORED_WF_STATUSES,
      canWrite: true,
    })),
    { label: 'super admin', accountId: systemAccount, roles: ['ROLE_SUPER_ADMIN'], wfstatus: null, canWrite: true },
  ];
  const organisationsOf = new Map(accounts.map((account) => [account.id, account.organisations.join(', ')]));
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
      canWrite: token.canWrite,
    });
    const organisations = organisationsOf.get(token.accountId) ?? token.accountId;
    tokens.push({ ...token, token: value, scope: scopeText(token.roles, wfstatus, token.canWrite, organisations) });
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
    tokens.push({
      label: row.name.startsWith(DEMO_TOKEN_PREFIX) ? row.name.slice(DEMO_TOKEN_PREFIX.length) : row.name,
      token: value,
      accountId: row.account_id,
      roles,
      canWrite: row.can_write,
      scope: scopeText(roles, row.filter_wfstatus, row.can_write, organisations),
    });
  }
  return tokens;
}

/** What a demo token sees and whether it writes, for the start-up message. */
function scopeText(
  roles: readonly string[],
  wfstatus: readonly string[] | null,
  canWrite: boolean,
  organisations: string,
): string {
  const sees = roles.includes('ROLE_SUPER_ADMIN')
    ? 'every organisation and status'
    : wfstatus === null
      ? `approved items of ${organisations}`
      : `every status of ${organisations}`;
  return `${sees}; ${canWrite ? 'writes' : 'read only'}`;
}
