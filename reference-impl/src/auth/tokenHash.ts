import { createHash, randomBytes } from 'node:crypto';

/** Account token values are stored only as this hash (DEC-AUTH-006). */
export function hashToken(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** A new account token value: `cst_` + 43 base64url characters (DEC-AUTH-006). */
export function generateTokenValue(): string {
  return `cst_${randomBytes(32).toString('base64url')}`;
}
