import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The credential the API's connection test logs in to the caster with (issue 17): the account's username and, as
 * password, a one-time token the API signs and the caster's authorizer checks, so the test needs neither the
 * user's password (only its hash is stored) nor a path that outsiders could reach. Both processes derive the
 * key from FEED_SECRET_KEY, which they share. A token names the username and mountpoint it is for, expires within
 * seconds and is accepted once per caster process. docs/adr/0022-connection-card.md.
 */

const PREFIX = 'probe.';
/** Long enough for a loaded API to connect, short enough that a leaked token is worth nothing. */
export const PROBE_TOKEN_TTL_MS = 15_000;

function probeKey(feedSecretKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(feedSecretKey, 'base64'), '', 'ntrip-connection-test', 32));
}

function mac(key: Buffer, username: string, mountpoint: string, expires: string, nonce: string): string {
  return createHmac('sha256', key)
    .update(`${username.toLowerCase()}\n${mountpoint.toUpperCase()}\n${expires}\n${nonce}`)
    .digest('base64url');
}

/** A token for one login of `username` on `mountpoint` within the next PROBE_TOKEN_TTL_MS. */
export function issueProbeToken(feedSecretKey: string, username: string, mountpoint: string, now = Date.now()): string {
  const expires = (now + PROBE_TOKEN_TTL_MS).toString(36);
  const nonce = randomBytes(12).toString('hex');
  return `${PREFIX}${expires}.${nonce}.${mac(probeKey(feedSecretKey), username, mountpoint, expires, nonce)}`;
}

export function looksLikeProbeToken(password: string): boolean {
  return password.startsWith(PREFIX);
}

/** Checks tokens on the caster side and remembers the ones used until they expire. */
export function createProbeVerifier(feedSecretKey: string) {
  const key = probeKey(feedSecretKey);
  const used = new Map<string, number>();
  return {
    /** True once for a token signed for this username and mountpoint that has not expired. */
    accept(password: string, username: string, mountpoint: string, now = Date.now()): boolean {
      if (!looksLikeProbeToken(password)) return false;
      const [expires = '', nonce = '', signature = ''] = password.slice(PREFIX.length).split('.');
      const expiresAt = Number.parseInt(expires, 36);
      if (!Number.isFinite(expiresAt) || expiresAt <= now || expiresAt > now + PROBE_TOKEN_TTL_MS) return false;
      const expected = Buffer.from(mac(key, username, mountpoint, expires, nonce));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
      for (const [seen, until] of used) if (until <= now) used.delete(seen);
      if (used.has(nonce)) return false;
      used.set(nonce, expiresAt);
      return true;
    },
  };
}
