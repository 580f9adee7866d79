// Webhook signing secrets at rest. The HMAC needs the secret itself, so it cannot be hashed like
// token values; it is encrypted instead (AES-256-GCM, key from WEBHOOK_SECRET_KEY through HKDF,
// the token id as associated data so a sealed secret cannot be moved to another token).
// Without a key the secret is stored as it is (a startup warning says so). Both forms can be
// read, so turning the key on later needs no migration: new and rotated secrets get sealed.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SecretBox {
  /** The stored form of `secret` for token `tokenId`. */
  seal(secret: string, tokenId: string): string;
  /** The secret of a stored value; throws SecretUnreadableError when this key cannot open it. */
  open(stored: string, tokenId: string): string;
}

export class SecretUnreadableError extends Error {
  constructor(reason: string) {
    super(`signing secret cannot be read: ${reason}; rotate-secret creates a new one`);
    this.name = 'SecretUnreadableError';
  }
}

export function createSecretBox(keyText: string | undefined): SecretBox {
  if (keyText === undefined) {
    return {
      seal: (secret) => secret,
      open(stored) {
        if (stored.startsWith(PREFIX))
          throw new SecretUnreadableError('it is encrypted and WEBHOOK_SECRET_KEY is not set');
        return stored;
      },
    };
  }
  const key = Buffer.from(hkdfSync('sha256', keyText, 'content-service', 'webhook-signing-secret/v1', 32));
  // Names the key in each sealed value, so a changed key is told apart from a damaged value.
  const keyId = createHash('sha256').update(key).digest('base64url').slice(0, 8);
  return {
    seal(secret, tokenId) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(tokenId, 'utf8'));
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${PREFIX}${keyId}:${iv.toString('base64url')}:${sealed.toString('base64url')}`;
    },
    open(stored, tokenId) {
      if (!stored.startsWith(PREFIX)) return stored; // stored before a key was configured
      const [id, ivText, sealedText] = stored.slice(PREFIX.length).split(':');
      if (id !== keyId) throw new SecretUnreadableError('it was encrypted with another WEBHOOK_SECRET_KEY');
      const iv = Buffer.from(ivText ?? '', 'base64url');
      const sealed = Buffer.from(sealedText ?? '', 'base64url');
      if (iv.length !== IV_BYTES || sealed.length < TAG_BYTES)
        throw new SecretUnreadableError('the stored value is damaged');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv);
        decipher.setAAD(Buffer.from(tokenId, 'utf8'));
        decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
        return Buffer.concat([
          decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new SecretUnreadableError('the stored value does not authenticate');
      }
    },
  };
}
