import { randomBytes } from 'node:crypto';

/** A new refresh token: `rt_` + 43 base64url characters (256 bits). Stored only as its SHA-256. */
export function generateRefreshToken(): string {
  return `rt_${randomBytes(32).toString('base64url')}`;
}
