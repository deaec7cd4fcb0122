import { hash, randomBytes } from 'node:crypto';
import { addCount } from './counts.ts';
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

export type ThrottleReason = 'address' | 'pair' | 'name';

/**
 * A login attempt's place in the failure budgets, taken before its password is checked (ADR 0040). Exactly one
 * of the two ends it.
 */
export interface LoginAttempt {
  /**
   * The password was wrong: the failure counts, with the lock it may bring, here at once; the promise resolves once
   * the other caster nodes count it too (ADR 0072), and the client's answer waits for it.
   */
  failed(): Promise<void>;
  /** Anything else (let in, or refused for another reason): the reserved failure is given back. */
  settled(): void;
}

const DONE = Promise.resolve();

/**
 * One login's place in the budgets: an object with methods rather than closures, as a storm makes thousands a
 * second (docs/performance.md).
 */
class Attempt implements LoginAttempt {
  private done = false;

  constructor(
    private readonly throttle: LoginThrottle,
    private readonly guess: Guess,
    private readonly guessKey: string,
    private readonly pairKey: string,
    private readonly key: string,
    private readonly ip: string,
  ) {}

  private end(failed: boolean): Promise<void> {
    if (this.done) return DONE;
    this.done = true;
    return this.throttle.endAttempt(this.guess, this.guessKey, this.pairKey, this.key, this.ip, failed);
  }

  failed(): Promise<void> {
    return this.end(true);
  }

  settled(): void {
    void this.end(false);
  }
}

/** Attempts of one pair with one password while they are checked: one guess, however many rovers send it. */
interface Guess {
  attempts: number;
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
  /** Guesses being checked, by pair and password digest; and how many each pair, name and address has. */
  private readonly guesses = new Map<string, Guess>();
  private readonly pendingByPair = new Map<string, number>();
  private readonly pendingByName = new Map<string, number>();
  private readonly pendingByAddress = new Map<string, number>();
  /**
   * Keys the password digests, so no password is kept as a map key; lives only in this process. The digest is
   * SHA-256 of secret and password in one call: an HMAC object per login was a fifth of a login's CPU in a storm
   * (docs/performance.md), and a map key needs no protection against length extension.
   */
  private readonly secret = randomBytes(32).toString('hex');
  /** Refusals per name since its last log line: the log gets one line per name and minute, not one per attempt. */
  private readonly logged = new Map<string, { at: number; refused: number }>();
  /** Addresses with failures counted (by address or by pair): a right password from them may still be refused. */
  private readonly suspects = new Set<string>();
  private suspectListener: ((address: string, held: boolean) => void) | null = null;

  constructor(
    private readonly limits: LoginThrottleLimits,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
    /** Tells the other caster nodes of a wrong password checked here (ADR 0072). */
    private readonly share: (ip: string, name: string) => Promise<void> = () => Promise.resolve(),
  ) {}

  /**
   * Takes an attempt's place in the budgets before its password is checked, or says why it is refused. An attempt
   * repeating a password of the same pair that is being checked joins that guess instead of spending budget: a
   * fleet's rovers behind one router log in at once with one password.
   */
  attempt(ip: string, name: string, password: string): LoginAttempt | ThrottleReason {
    const now = this.now();
    const key = name.toLowerCase();
    const pairKey = `${ip}\n${key}`;
    const guessKey = `${pairKey}\n${hash('sha256', `${this.secret}${password}`, 'base64')}`;
    let guess = this.guesses.get(guessKey);
    const pair = this.pairs.get(pairKey);
    if (guess && !(pair && pair.lockedUntil > now)) guess.attempts++;
    else {
      const reason = this.refusedNow(ip, key, now);
      if (reason) return reason;
      guess = { attempts: 1 };
      this.guesses.set(guessKey, guess);
      this.pending(pairKey, key, ip, 1);
    }
    return new Attempt(this, guess, guessKey, pairKey, key, ip);
  }

  /** An attempt's end (called by its Attempt, once): its guess given back, and a failure counted and shared. */
  endAttempt(guess: Guess, guessKey: string, pairKey: string, key: string, ip: string, failed: boolean): Promise<void> {
    if (--guess.attempts === 0) {
      this.guesses.delete(guessKey);
      this.pending(pairKey, key, ip, -1);
    }
    if (!failed) return DONE;
    this.failed(ip, key);
    return this.share(ip, key);
  }

  private pending(pairKey: string, name: string, ip: string, by: 1 | -1): void {
    addCount(this.pendingByPair, pairKey, by);
    addCount(this.pendingByName, name, by);
    addCount(this.pendingByAddress, ip, by);
  }

  private refusedNow(ip: string, key: string, now: number): ThrottleReason | null {
    const pairKey = `${ip}\n${key}`;
    const pair = this.pairs.get(pairKey);
    const pendingPair = this.pendingByPair.get(pairKey) ?? 0;
    let reason: ThrottleReason | null = null;
    if (this.over(this.addresses.get(ip), this.pendingByAddress.get(ip) ?? 0, this.limits.failedLoginsPerIp, now))
      reason = 'address';
    else if (pair && pair.lockedUntil > now) reason = 'pair';
    // Past its free failures a pair has one guess checked at a time: the next failure decides the next lock.
    else if (
      pendingPair > 0 &&
      (pair && now - Math.max(pair.since, pair.lockedUntil) < this.limits.failedLoginWindowMs ? pair.count : 0) +
        pendingPair >=
        this.limits.failedLoginsPerPair
    )
      reason = 'pair';
    else if (
      (pair || pendingPair > 0) &&
      this.over(this.names.get(key), this.pendingByName.get(key) ?? 0, this.limits.failedLoginsPerName, now)
    )
      reason = 'name';
    if (reason) this.log(ip, key, reason, now);
    return reason;
  }

  /**
   * A wrong password another caster node checked: it counts here as if checked here, so an address spreading its
   * guesses over the nodes is throttled as on one node (ADR 0072).
   */
  failedElsewhere(ip: string, name: string): void {
    this.failed(ip, name.toLowerCase());
  }

  /**
   * Tells `listener` when an address comes to have failures counted, and when it has none left: logins answered
   * without this throttle (the native port's, ADR 0100) must come here from such an address.
   */
  watchSuspects(listener: (address: string, held: boolean) => void): void {
    this.suspectListener = listener;
    for (const address of this.suspects) listener(address, true);
  }

  /** A pair is remembered for a window after its lock ends, so a stale rover's next failure locks it longer. */
  private failed(ip: string, key: string): void {
    const now = this.now();
    if (!this.suspects.has(ip)) {
      this.suspects.add(ip);
      this.suspectListener?.(ip, true);
    }
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
    if (this.suspects.size > 0) this.clearSuspects();
    for (const [k, e] of this.logged) {
      if (now - e.at >= 60_000) {
        if (e.refused > 0)
          this.logger.warn({ username: k, refused: e.refused }, 'failed logins throttled (last minute)');
        this.logged.delete(k);
      }
    }
  }

  /** Addresses with nothing counted any more. */
  private clearSuspects(): void {
    const counted = new Set(this.addresses.keys());
    for (const pairKey of this.pairs.keys()) counted.add(pairKey.slice(0, pairKey.indexOf('\n')));
    for (const address of this.suspects) {
      if (counted.has(address)) continue;
      this.suspects.delete(address);
      this.suspectListener?.(address, false);
    }
  }

  /** Failures of an entry that still count. */
  private live(entry: Count | undefined, now: number): number {
    return entry && now - entry.since < this.limits.failedLoginWindowMs ? entry.count : 0;
  }

  private over(entry: Count | undefined, pending: number, limit: number, now: number): boolean {
    return this.live(entry, now) + pending >= limit;
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
