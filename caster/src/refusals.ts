import type { Clock, ClockTimer } from './clock.ts';
import type { AuthDenial, RefusalDetail, RefusalReason, RefusalRecord, UsagePort } from './ports.ts';
import type { Logger } from './session-log.ts';

/** One attempt as the caster saw it; `accountId` is null when only the name is known (or not even that exists). */
export interface RefusalEvent {
  accountId: string | null;
  username: string;
  reason: RefusalReason;
  mountpoint: string;
  remoteAddress: string;
  userAgent: string | null;
  ntripVersion: 1 | 2;
  /** The attempt came over a TLS port. */
  tls: boolean;
  detail: RefusalDetail;
}

const MINUTE = 60_000;
/** Longest username or User-Agent kept: both come from the client. */
const MAX_TEXT = 128;
/** Made-up names seen from one address that are kept as examples for the admin log. */
const MAX_SAMPLE_NAMES = 5;
/** Distinct entries held between two flushes; past it, new ones fold into one overflow entry per reason. */
export const MAX_PENDING_REFUSALS = 2_000;

/** Client text as stored: control characters (a NUL cannot be stored in PostgreSQL text) dropped, length bounded. */
const clip = (text: string) =>
  text
    .slice(0, MAX_TEXT * 2)
    .replace(/\p{Cc}/gu, '')
    .slice(0, MAX_TEXT);

/**
 * Collects refused (and stalled) rover attempts and hands them to the usage port about once a second, aggregated
 * per account, reason and minute, so a brute-force or a reconnect storm costs one row per minute, not one per
 * attempt (issue 17). Attempts whose username has no account are aggregated per address instead (the admin-wide
 * log), and what a storm of made-up names would add past MAX_PENDING_REFUSALS folds into one entry.
 */
export class RefusalLog {
  private pending = new Map<string, RefusalRecord>();
  private readonly timer: ClockTimer;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly usage: Pick<UsagePort, 'recordRefusals'>,
    private readonly logger: Logger,
    intervalMs: number,
    private readonly clock: Clock,
  ) {
    this.timer = clock.setInterval(() => void this.flush(), intervalMs);
  }

  record(event: RefusalEvent): void {
    if (!this.usage.recordRefusals) return;
    const at = this.clock.now();
    const minute = at - (at % MINUTE);
    const username = clip(event.username.toLowerCase());
    let scope: RefusalRecord['scope'] =
      event.accountId !== null ? 'account' : event.reason === 'unknown_username' ? 'address' : 'name';
    const who = scope === 'account' ? event.accountId : scope === 'name' ? username : event.remoteAddress;
    let key = `${scope}\n${who}\n${event.reason}\n${minute}`;
    if (!this.pending.has(key) && this.pending.size >= MAX_PENDING_REFUSALS) {
      scope = 'address';
      key = `overflow\n${event.reason}\n${minute}`;
    }
    const userAgent = event.userAgent === null ? null : clip(event.userAgent);
    const entry = this.pending.get(key);
    if (entry) {
      entry.count++;
      entry.lastAt = new Date(at);
      entry.mountpoint = clip(event.mountpoint);
      entry.remoteAddress = key.startsWith('overflow') ? '*' : event.remoteAddress;
      entry.userAgent = userAgent;
      entry.ntripVersion = event.ntripVersion;
      entry.tls = event.tls;
      entry.detail = event.detail;
      if (entry.usernames.length < MAX_SAMPLE_NAMES && !entry.usernames.includes(username)) {
        entry.usernames.push(username);
      }
      return;
    }
    this.pending.set(key, {
      scope,
      accountId: scope === 'account' ? event.accountId : null,
      usernames: [username],
      reason: event.reason,
      minute: new Date(minute),
      count: 1,
      firstAt: new Date(at),
      lastAt: new Date(at),
      mountpoint: clip(event.mountpoint),
      remoteAddress: key.startsWith('overflow') ? '*' : event.remoteAddress,
      userAgent,
      ntripVersion: event.ntripVersion,
      tls: event.tls,
      detail: event.detail,
    });
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0 || !this.usage.recordRefusals) return;
      const batch = [...this.pending.values()];
      this.pending = new Map();
      try {
        await this.usage.recordRefusals(batch);
      } catch (err) {
        this.logger.error({ err, refusals: batch.length }, 'refused-attempt log write failed; entries dropped');
      }
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    this.clock.clear(this.timer);
    await this.flush();
  }
}

/**
 * Items in the order they were added, each handed to `due` once it is `afterMs` old: one sweep a second walks only
 * the front of the queue, instead of one timer per rover.
 */
export class DueQueue<T> {
  private items: Array<{ at: number; item: T }> = [];
  private head = 0;

  constructor(private readonly afterMs: number) {}

  add(item: T, at: number): void {
    this.items.push({ at, item });
  }

  poll(now: number, due: (item: T) => void): void {
    while (this.head < this.items.length) {
      const next = this.items[this.head] as { at: number; item: T };
      if (now - next.at < this.afterMs) break;
      this.head++;
      due(next.item);
    }
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}

/** The refusal an authorisation denial stands for, with what the owner needs to fix it. */
export function refusalOfDenial(denial: AuthDenial): {
  accountId: string | null;
  reason: RefusalReason;
  detail: RefusalDetail;
} {
  const accountId = denial.accountId ?? null;
  switch (denial.reason) {
    case 'bad_credentials':
      return { accountId, reason: accountId ? 'wrong_password' : 'unknown_username', detail: {} };
    case 'disabled':
      return { accountId, reason: 'account_disabled', detail: { disabled: denial.disabled ?? 'account' } };
    case 'no_grant':
      return {
        accountId,
        reason: denial.network ? 'no_access' : 'unknown_mountpoint',
        detail: denial.network
          ? { network: denial.network, accessEndedAt: denial.accessEndedAt ? denial.accessEndedAt.toISOString() : null }
          : {},
      };
    case 'too_many_connections':
      return { accountId, reason: 'too_many_connections', detail: {} };
  }
}
