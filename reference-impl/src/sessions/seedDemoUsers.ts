import { randomBytes, randomUUID } from 'node:crypto';
import type { Role } from '../http/principal.ts';
import type { Queryable } from '../storage/db.ts';
import { insertUser } from '../storage/sessions/insertUser.ts';
import { listAccountIds } from '../storage/sessions/listAccountIds.ts';
import { hashPassword, type ScryptParams } from './password.ts';

export interface DemoUser {
  accountId: string;
  username: string;
  password: string;
  roles: readonly Role[];
}

export interface SeedDemoUsersOptions {
  /** The password of each demo user; default: 18 random characters, printed once by the caller. */
  passwordFor?: (username: string) => string;
  /** Only these accounts; default: every account in the store. */
  accountIds?: readonly string[];
  /** Default: DEFAULT_SCRYPT. */
  scrypt?: ScryptParams;
}

const DEMO_KINDS = [
  ['editor', ['ROLE_EXTERNAL_USER']],
  ['admin', ['ROLE_ADMIN']],
] as const;

/**
 * Gives every account an editor (`editor@<account>.example`, ROLE_EXTERNAL_USER) and an admin
 * (`admin@<account>.example`, ROLE_ADMIN) for first-party sign-in. Users that exist are left as
 * they are. Returns the users created now, with their passwords, for the caller to print: random
 * passwords, because demo data is seeded by default and known passwords would be admin access to
 * any deployment that forgot to turn it off.
 */
export async function seedDemoUsers(db: Queryable, options: SeedDemoUsersOptions = {}): Promise<DemoUser[]> {
  const passwordFor = options.passwordFor ?? (() => randomBytes(14).toString('base64url').slice(0, 18));
  const accountIds = options.accountIds ?? (await listAccountIds(db));
  const users: DemoUser[] = accountIds.flatMap((accountId) =>
    DEMO_KINDS.map(([kind, roles]) => {
      const username = `${kind}@${accountId}.example`;
      return { accountId, username, password: passwordFor(username), roles };
    }),
  );
  // scrypt runs on libuv's pool: hashing side by side saves most of the start-up wait.
  const hashes = await Promise.all(users.map((user) => hashPassword(user.password, options.scrypt)));
  const created: DemoUser[] = [];
  for (const [index, user] of users.entries()) {
    const inserted = await insertUser(db, {
      id: randomUUID(),
      accountId: user.accountId,
      username: user.username,
      passwordHash: hashes[index]!,
      roles: user.roles,
      demo: true,
    });
    if (inserted) created.push(user);
  }
  return created;
}

/** The lines a seed prints: who can sign in with what. */
export function formatDemoUsers(users: readonly DemoUser[]): string {
  return users
    .map(
      (user) => `  ${user.username.padEnd(32)} ${user.password}  (${user.roles.join(', ')}, account ${user.accountId})`,
    )
    .join('\n');
}
