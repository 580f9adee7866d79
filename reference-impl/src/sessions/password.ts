import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// Passwords are stored as `scrypt$<N>$<r>$<p>$<salt>$<key>` (salt and key base64url). The
// parameters travel with each hash, so raising them later keeps old hashes verifiable.

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** OWASP's scrypt minimum at 32 MiB: N=2^15, r=8, p=3 (about 100 ms on one core). */
const DEFAULT_SCRYPT: ScryptParams = { N: 2 ** 15, r: 8, p: 3 };

const SALT_BYTES = 16;
const KEY_BYTES = 32;
const FORMAT = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9_-]{16,})\$([A-Za-z0-9_-]{16,})$/;

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; allow that plus headroom instead of the 32 MiB default cap.
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 128 * params.N * params.r * 2 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Whether `password` matches `stored`; false for a malformed hash. Compares in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = FORMAT.exec(stored);
  if (match === null) return false;
  const params = { N: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  if (!Number.isInteger(Math.log2(params.N)) || params.N < 2 || params.r < 1 || params.p < 1) return false;
  const expected = Buffer.from(match[5]!, 'base64url');
  const actual = await derive(password, Buffer.from(match[4]!, 'base64url'), params);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

let dummyHash: Promise<string> | undefined;

/**
 * A hash to verify against when the username is unknown, so that an unknown user costs the same
 * scrypt run as a wrong password and response times do not reveal which usernames exist.
 */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('base64url'));
  return dummyHash;
}
