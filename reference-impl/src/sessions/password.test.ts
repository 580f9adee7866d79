import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password.ts';
import { TEST_SCRYPT } from '../../test/support/sessions/testUsers.ts';

describe('password hashing (scrypt)', () => {
  it('when a password is hashed, then the hash carries its parameters and a fresh salt, and verifies only that password', async () => {
    const a = await hashPassword('correct horse', TEST_SCRYPT);
    const b = await hashPassword('correct horse', TEST_SCRYPT);
    expect(a).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horse!', a)).toBe(false);
  });

  it('when the password differs only in Unicode normal form, then it still verifies', async () => {
    const hash = await hashPassword('caf\u00e9', TEST_SCRYPT);
    expect(await verifyPassword('cafe\u0301', hash)).toBe(true);
  });

  it('when the stored hash is malformed, then verification fails instead of throwing', async () => {
    for (const stored of [
      '',
      'plain',
      'scrypt$1000$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      'bcrypt$2b$10$abc',
    ]) {
      expect(await verifyPassword('x', stored)).toBe(false);
    }
  });
});
