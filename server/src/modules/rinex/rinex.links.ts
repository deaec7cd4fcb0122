import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * Signed download links: `?expires=UNIX_SECONDS&signature=HMAC` over the job id and the expiry. The key is derived
 * from the portal's secret (FEED_SECRET_KEY) with HKDF under a purpose of its own, so no further secret has to be
 * configured and a leaked link key would not open feed credentials.
 */
export interface LinkSigner {
  sign(jobId: string, expiresAt: Date): { expires: number; signature: string };
  /** `valid`, or why not. */
  check(jobId: string, expires: number, signature: string, now: Date): 'valid' | 'expired' | 'invalid';
}

export function createLinkSigner(secretBase64: string): LinkSigner {
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secretBase64, 'base64'), '', 'rinex-download-link', 32));
  const mac = (jobId: string, expires: number) =>
    createHmac('sha256', key).update(`${jobId}.${expires}`).digest('base64url');
  return {
    sign(jobId, expiresAt) {
      const expires = Math.floor(expiresAt.getTime() / 1000);
      return { expires, signature: mac(jobId, expires) };
    },
    check(jobId, expires, signature, now) {
      const wanted = Buffer.from(mac(jobId, expires));
      const given = Buffer.from(signature);
      if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return 'invalid';
      return expires * 1000 <= now.getTime() ? 'expired' : 'valid';
    },
  };
}
