import type { Logger } from './session-log.ts';

export interface LoginThrottleLimits {
  /** Wrong passwords an (address, name) pair may send before it is slowed down. */
  failedLoginsPerPair: number;
  /** First lock of a pair past its free failures; it doubles with each further failure. */
  failedLoginBackoffMs: number;
  failedLoginBackoffMaxMs: number;
  /**
   * Wrong passwords for one name from all addresses in a window; past it, only addresses that already failed for
   * that name are refused, so guessing one name from many addresses stops without locking out its right password.
   */
  failedLoginsPerName: number;
  /** Wrong passwords from one address across all names in a window: the ceiling against credential stuffing. */
  failedLoginsPerIp: number;
  failedLoginWindowMs: number;
}

/** What a throttled client is told (429), by the rule that throttled it. */
export const THROTTLED_TEXT = {
  address: 'Too many failed logins from this address',
  pair: 'Too many failed logins for this name from this address; wait before trying again',
  name: 'Too many failed logins for this name from this address; wait before trying again',
} as const;

interface Count {
  count: number;
  since: number;
}

interface Pair extends Count {
  lockedUntil: number;
}

/**
 * Throttles failed logins by (address, name), by name and, with a much higher ceiling, by address (issue 25,
 * docs/adr/0015-login-throttling.md). Many customers share one address behind carrier-grade NAT or a fleet's
 * router, so one stale password must slow only its own pair, never the other names behind that address.
 */
export class LoginThrottle {
  private readonly pairs = new Map<string, Pair>();
  private readonly names = new Map<string, Count>();
  private readonly addresses = new Map<string, Count>();
  /** Refusals per name since its last log line: the log gets one line per name and minute, not one per attempt. */
  private readonly logged = new Map<string, { at: number; refused: number }>();

  constructor(
    private readonly limits: LoginThrottleLimits,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Why an attempt is refused before its password is checked, or null to check it. */
  refusal(ip: string, name: string): 'address' | 'pair' | 'name' | null {
    const now = this.now();
    const key = name.toLowerCase();
    const pair = this.pairs.get(`${ip}\n${key}`);
    let reason: 'address' | 'pair' | 'name' | null = null;
    if (this.over(this.addresses.get(ip), this.limits.failedLoginsPerIp, now)) reason = 'address';
    else if (pair && pair.lockedUntil > now) reason = 'pair';
    else if (pair && this.over(this.names.get(key), this.limits.failedLoginsPerName, now)) reason = 'name';
    if (reason) this.log(ip, key, reason, now);
    return reason;
  }

  /** A pair is remembered for a window after its lock ends, so a stale rover's next failure locks it longer. */
  failed(ip: string, name: string): void {
    const now = this.now();
    const key = name.toLowerCase();
    this.bump(this.addresses, ip, now);
    this.bump(this.names, key, now);
    const pairKey = `${ip}\n${key}`;
    let pair = this.pairs.get(pairKey);
    if (!pair || now - Math.max(pair.since, pair.lockedUntil) >= this.limits.failedLoginWindowMs) {
      pair = { count: 0, since: now, lockedUntil: 0 };
      this.pairs.set(pairKey, pair);
    }
    pair.count++;
    const beyond = pair.count - this.limits.failedLoginsPerPair;
    if (beyond >= 0) {
      const lock = Math.min(
        this.limits.failedLoginBackoffMs * 2 ** Math.min(beyond, 30),
        this.limits.failedLoginBackoffMaxMs,
      );
      pair.lockedUntil = now + lock;
      pair.since = now;
    }
  }

  /** Drops what no longer counts; called once a second. */
  sweep(): void {
    const now = this.now();
    const window = this.limits.failedLoginWindowMs;
    for (const [k, e] of this.addresses) if (now - e.since >= window) this.addresses.delete(k);
    for (const [k, e] of this.names) if (now - e.since >= window) this.names.delete(k);
    for (const [k, e] of this.pairs) if (now - Math.max(e.since, e.lockedUntil) >= window) this.pairs.delete(k);
    for (const [k, e] of this.logged) {
      if (now - e.at >= 60_000) {
        if (e.refused > 0)
          this.logger.warn({ username: k, refused: e.refused }, 'failed logins throttled (last minute)');
        this.logged.delete(k);
      }
    }
  }

  private over(entry: Count | undefined, limit: number, now: number): boolean {
    return entry !== undefined && now - entry.since < this.limits.failedLoginWindowMs && entry.count >= limit;
  }

  private bump(map: Map<string, Count>, key: string, now: number): void {
    const entry = map.get(key);
    if (!entry || now - entry.since >= this.limits.failedLoginWindowMs) map.set(key, { count: 1, since: now });
    else entry.count++;
  }

  private log(ip: string, name: string, reason: string, now: number): void {
    const entry = this.logged.get(name);
    if (entry) {
      entry.refused++;
      return;
    }
    this.logged.set(name, { at: now, refused: 0 });
    this.logger.warn({ username: name, address: ip, reason }, 'failed logins throttled');
  }
}
