import type { Clock, ClockTimer } from './clock.ts';
import type { CasterLimits } from './limits.ts';
import type { AuthorizePort } from './ports.ts';
import type { Rover } from './relay/mount.ts';
import type { Logger } from './session-log.ts';

export interface AccessWatchDeps {
  auth: Pick<AuthorizePort, 'access'>;
  limits: Pick<CasterLimits, 'accessRecheckMs'>;
  clock: Clock;
  logger: Logger;
  /** The logged-in rovers by account; the caster adds and removes them. */
  roversByAccount: Map<string, Set<Rover>>;
  /** A rover whose network is no longer granted. */
  revoke(rover: Rover): void;
  /** How many of an account's connections this node may hold, the other nodes' counted out. */
  share(accountId: string, max: number): number;
  /** A rover past its account's connection limit. */
  trim(rover: Rover): void;
}

/**
 * Asks the auth port again for rovers whose access reached its end (within a second) and, every accessRecheckMs,
 * for all of them, in one batch; a rover whose network is no longer granted is closed (ADR 0008), and an account
 * holding more connections than its limit (lowered since, or passed across nodes) loses its newest (ADR 0040). A
 * failed check keeps the rovers and is tried again: a database hiccup must not cut every paying user off.
 */
export class AccessWatch {
  private lastFullCheck: number;
  private checking = false;
  /**
   * No connected rover's access ends before this (ms); rovers that left may make it early, which costs one
   * needless check. The check every second then looks at one number instead of every rover.
   */
  private nextAccessEnd = Number.POSITIVE_INFINITY;
  private readonly timer: ClockTimer;

  constructor(private readonly deps: AccessWatchDeps) {
    this.lastFullCheck = deps.clock.now();
    this.timer = deps.clock.setInterval(() => void this.check(), Math.min(1000, deps.limits.accessRecheckMs));
  }

  /** A rover logged in: its access end may be the next one. */
  added(rover: Rover): void {
    this.nextAccessEnd = Math.min(this.nextAccessEnd, rover.accessUntil);
  }

  stop(): void {
    this.deps.clock.clear(this.timer);
  }

  async check(): Promise<void> {
    const { roversByAccount, clock, limits, auth, logger } = this.deps;
    if (this.checking || roversByAccount.size === 0) return;
    const now = clock.now();
    const full = now - this.lastFullCheck >= limits.accessRecheckMs;
    if (!full && this.nextAccessEnd > now) return;
    const accounts: string[] = [];
    for (const [accountId, rovers] of roversByAccount) {
      if (full) accounts.push(accountId);
      else
        for (const rover of rovers) {
          if (rover.accessUntil > now) continue;
          accounts.push(accountId);
          break;
        }
    }
    if (accounts.length === 0) return this.findNextAccessEnd();
    this.checking = true;
    try {
      const access = await auth.access(accounts, new Date(now));
      if (full) this.lastFullCheck = now;
      for (const accountId of accounts) {
        const granted = access.get(accountId);
        for (const rover of [...(roversByAccount.get(accountId) ?? [])]) {
          const until = granted?.networks.get(rover.network);
          if (until && until.getTime() > now) rover.accessUntil = until.getTime();
          else {
            logger.info({ account: accountId, mountpoint: rover.requested }, 'rover disconnected: access ended');
            this.deps.revoke(rover);
          }
        }
        if (granted) this.trim(accountId, granted.maxConnections);
      }
      this.findNextAccessEnd();
    } catch (err) {
      logger.error({ err }, 'access check failed; rovers kept until the next check');
    } finally {
      this.checking = false;
    }
  }

  /** Ends the account's newest rovers past what this node may hold of its limit. */
  private trim(accountId: string, max: number): void {
    const rovers = this.deps.roversByAccount.get(accountId);
    const surplus = (rovers?.size ?? 0) - Math.max(0, this.deps.share(accountId, max));
    if (!rovers || surplus <= 0) return;
    const newest = [...rovers].sort((a, b) => b.startedMs - a.startedMs || b.id - a.id);
    for (const rover of newest.slice(0, surplus)) {
      this.deps.logger.warn(
        { account: accountId, mountpoint: rover.requested, limit: max },
        'rover disconnected: more connections than the account may have',
      );
      this.deps.trim(rover);
    }
  }

  private findNextAccessEnd(): void {
    this.nextAccessEnd = Number.POSITIVE_INFINITY;
    for (const rovers of this.deps.roversByAccount.values()) {
      for (const rover of rovers) this.nextAccessEnd = Math.min(this.nextAccessEnd, rover.accessUntil);
    }
  }
}
