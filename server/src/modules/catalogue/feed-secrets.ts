import { createCipheriv, createDecipheriv, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Secrets of feeds. A push feed's source password is only ever compared, so it is stored as a scrypt hash.
 * A pull feed's upstream password must be sent to the upstream caster, so it is stored encrypted
 * (AES-256-GCM) with FEED_SECRET_KEY, bound to its feed id so a ciphertext copied to another row fails to open.
 */

const SCRYPT = { N: 16384, r: 8, p: 1, keyLength: 32 } as const;

function scryptAsync(password: string, salt: Buffer, N: number, r: number, p: number, keyLength: number) {
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(password, salt, keyLength, { N, r, p, maxmem: 128 * N * r * 2 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$salt$hash` (base64), so the cost can be raised later without breaking stored hashes. */
export async function hashSourcePassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p, SCRYPT.keyLength);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifySourcePassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  if (expected.length < 16) return false;
  const actual = await scryptAsync(
    password,
    Buffer.from(salt, 'base64'),
    Number(n),
    Number(r),
    Number(p),
    expected.length,
  );
  return timingSafeEqual(actual, expected);
}

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
