import { randomBytes, randomUUID } from 'node:crypto';
import type { Role } from '../../../src/http/principal.ts';
import type { Queryable } from '../../../src/storage/db.ts';
import { insertUser } from '../../../src/storage/sessions/insertUser.ts';
import { hashPassword } from '../../../src/sessions/password.ts';

/** Cheap scrypt parameters for tests: the hash string records them, so verification matches. */
export const TEST_SCRYPT = { N: 2 ** 10, r: 8, p: 1 };

/** A user with a unique username and a known password, written straight into storage. */
export async function createTestUser(
  db: Queryable,
  params: { accountId: string; roles?: readonly Role[] },
): Promise<{ id: string; username: string; password: string }> {
  const id = randomUUID();
  const username = `user-${id.slice(0, 8)}@${params.accountId}.test`;
  const password = randomBytes(12).toString('base64url');
  await insertUser(db, {
    id,
    accountId: params.accountId,
    username,
    passwordHash: await hashPassword(password, TEST_SCRYPT),
    roles: params.roles ?? ['ROLE_EXTERNAL_USER'],
  });
  return { id, username, password };
}
