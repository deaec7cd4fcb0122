import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets of feeds. A push feed's source password is only ever compared, so it is stored as a scrypt hash
 * (shared/password-hash.ts). A pull feed's upstream password must be sent to the upstream caster, so it is stored
 * encrypted (AES-256-GCM) with FEED_SECRET_KEY, bound to its feed id so a ciphertext copied to another row fails to
 * open.
 */

export interface FeedCipher {
  encrypt(plaintext: string, feedId: string): string;
  decrypt(sealed: string, feedId: string): string;
}

/** `v1.iv.tag.ciphertext` in base64url; the version leaves room for key rotation. */
export function createFeedCipher(keyBase64: string): FeedCipher {
  const key = Buffer.from(keyBase64, 'base64');
  if (key.length !== 32) throw new Error('FEED_SECRET_KEY must be 32 bytes in base64');
  return {
    encrypt(plaintext, feedId) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(feedId));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body]
        .map((x) => (typeof x === 'string' ? x : x.toString('base64url')))
        .join('.');
    },
    decrypt(sealed, feedId) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || iv === undefined || tag === undefined || body === undefined) {
        throw new Error('Unknown feed secret format');
      }
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(feedId));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
