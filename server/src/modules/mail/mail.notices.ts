import { randomUUID } from 'node:crypto';
import { type Selectable, sql } from 'kysely';
import type { Database } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';
import { periodic } from '../../shared/periodic.ts';
import type { MailRepo } from './mail.repo.ts';
import type { Mailer } from './mail.service.ts';
import type { WorkerLog } from './mail.worker.ts';

const DAY_MS = 86_400_000;
/** "Access ends soon" is sent once the end is this close, or closer for a short period (accessEndingNoticeMs). */
export const ACCESS_ENDING_NOTICE_MS = 3 * DAY_MS;

/**
 * How long before its end a period of `spanMs` is said to end soon: 3 days, but never more than its last quarter
 * (issue 32: a 1-day activation was told it "ends soon" minutes after it was bought). A day's activation hears it
 * 6 hours before the end, a week's 42 hours before, a month's 3 days before.
 */
export function accessEndingNoticeMs(spanMs: number): number {
  return Math.min(ACCESS_ENDING_NOTICE_MS, Math.max(0, spanMs) / 4);
}
/** An end older than this is history, not news: a first start does not mail about last year's subscriptions. */
const ENDED_NEWS_MS = 7 * DAY_MS;

/** The facts the billing module reports; each becomes at most one mail (the key is the payment or invoice). */
export interface BillingNotices {
  paymentReceived(
    trx: Database,
    payment: {
      userId: string;
      provider: string;
      providerPaymentId: string;
      description: string;
      amount: number;
      currency: string;
      paidAt: Date;
      invoiceNumber: string | null;
      invoiceUrl: string | null;
    },
  ): Promise<void>;
  renewalFailed(
    trx: Database,
    invoice: {
      userId: string;
      provider: string;
      providerInvoiceId: string;
      description: string;
      amount: number;
      currency: string;
      invoiceUrl: string | null;
    },
  ): Promise<void>;
}

export function createBillingNotices(mailer: Mailer): BillingNotices {
  return {
    async paymentReceived(trx, p) {
      await mailer.queue(trx, {
        key: `receipt:${p.provider}:${p.providerPaymentId}`,
        userId: p.userId,
        content: {
          kind: 'receipt',
          description: p.description,
          amount: p.amount,
          currency: p.currency,
          paidAt: p.paidAt.toISOString(),
          invoiceNumber: p.invoiceNumber,
          invoiceUrl: p.invoiceUrl,
        },
        // What an attachment source (the billing module's invoice PDF) needs to find the payment.
        data: { provider: p.provider, providerPaymentId: p.providerPaymentId },
      });
    },
    async renewalFailed(trx, i) {
      await mailer.queue(trx, {
        key: `renewal-failed:${i.provider}:${i.providerInvoiceId}`,
        userId: i.userId,
        content: {
          kind: 'renewal_failed',
          description: i.description,
          amount: i.amount,
          currency: i.currency,
          invoiceUrl: i.invoiceUrl,
        },
      });
    },
  };
}

/** The RINEX job's "download ready" mail, in the transaction that marks it done; one per job. */
export function createRinexNotice(mailer: Mailer) {
  return async (
    trx: Database,
    job: { id: string; user_id: string; mountpoint: string; window_start: Date; window_end: Date },
    expiresAt: Date,
  ): Promise<void> => {
    await mailer.queue(trx, {
      key: `rinex-ready:${job.id}`,
      userId: job.user_id,
      content: {
        kind: 'rinex_ready',
        mountpoint: job.mountpoint,
        windowStart: new Date(job.window_start).toISOString(),
        windowEnd: new Date(job.window_end).toISOString(),
        expiresAt: expiresAt.toISOString(),
      },
    });
  };
}

/** Told by the token ledger after each append, in its transaction. */
export type BalanceNotice = (
  trx: Database,
  change: { userId: string; before: number; after: number; reference: string | null },
) => Promise<void>;

/** Mails the user whose balance fell below the threshold they set: once per crossing, keyed by the entry. */
export function createBalanceNotice(mailer: Mailer, repo: MailRepo): BalanceNotice {
  return async (trx, change) => {
    if (change.after >= change.before) return;
    const { lowBalanceThreshold: threshold } = await repo.preferences(change.userId, trx);
    if (!(change.before >= threshold && change.after < threshold)) return;
    await mailer.queue(trx, {
      key: `low-balance:${change.userId}:${change.reference ?? randomUUID()}`,
      userId: change.userId,
      content: { kind: 'low_balance', balance: change.after, threshold },
    });
  };
}

/**
 * A subscription or a token activation that ends: its id and the user to tell (a subscription's user_id, a grant's
 * owner_user_id), what it gives (the product's or network's name) and its period.
 */
type EndingRow = Pick<Selectable<DB['subscriptions']>, 'id' | 'user_id'> & {
  what: Selectable<DB['products']>['name'];
  /** Start of the period that ends: the subscription's current period, the activation's own days. */
  starts_at: Date;
  ends_at: Date;
};

/**
 * The periodic check for access that ends soon (within 3 days, or the last quarter of a shorter period) and access
 * that has ended: subscriptions that will not
 * renew (cancelling, or manual ones) and token activations without a later one on the same account and network.
 * Each mail's key is the subscription or activation and its end, so a renewed or extended period is a new
 * event, and every process may run the check.
 */
export function createAccessNotices(deps: {
  db: Database;
  mailer: Mailer;
  clock?: () => Date;
  log: WorkerLog;
  intervalMs?: number;
}) {
  const { db, mailer } = deps;
  const clock = deps.clock ?? (() => new Date());
  const subscriptionsEnding = (from: Date, to: Date) =>
    sql<EndingRow>`
      SELECT s.id, s.user_id, p.name AS what, s.current_period_start AS starts_at,
        CASE WHEN s.status IN ('cancelled', 'expired') THEN least(coalesce(s.ended_at, s.current_period_end), s.current_period_end)
             ELSE s.current_period_end END AS ends_at
      FROM subscriptions s JOIN products p ON p.id = s.product_id
      WHERE (s.status = 'cancelling' OR (s.provider = 'manual' AND s.status IN ('active', 'past_due'))
             OR s.status IN ('cancelled', 'expired'))
        AND CASE WHEN s.status IN ('cancelled', 'expired') THEN least(coalesce(s.ended_at, s.current_period_end), s.current_period_end)
                 ELSE s.current_period_end END > ${from}
        AND CASE WHEN s.status IN ('cancelled', 'expired') THEN least(coalesce(s.ended_at, s.current_period_end), s.current_period_end)
                 ELSE s.current_period_end END <= ${to}`.execute(db);

  const activationsEnding = (from: Date, to: Date) =>
    sql<EndingRow>`
      SELECT g.id, g.owner_user_id AS user_id, n.name AS what, g.valid_from AS starts_at, g.valid_until AS ends_at
      FROM access_grants g JOIN networks n ON n.id = g.network_id
      WHERE g.source = 'tokens' AND g.ended_at IS NULL AND g.valid_until > ${from} AND g.valid_until <= ${to}
        AND NOT EXISTS (
          SELECT 1 FROM access_grants later
          WHERE later.source = 'tokens' AND later.ended_at IS NULL AND later.id <> g.id
            AND later.network_id = g.network_id
            AND later.account_id IS NOT DISTINCT FROM g.account_id
            AND later.organization_id IS NOT DISTINCT FROM g.organization_id
            AND later.valid_from <= g.valid_until AND later.valid_until > g.valid_until)`.execute(db);

  async function run(): Promise<void> {
    const now = clock();
    const soon = new Date(now.getTime() + ACCESS_ENDING_NOTICE_MS);
    const since = new Date(now.getTime() - ENDED_NEWS_MS);
    const groups = [
      {
        source: 'subscription' as const,
        ending: await subscriptionsEnding(now, soon),
        ended: await subscriptionsEnding(since, now),
      },
      {
        source: 'tokens' as const,
        ending: await activationsEnding(now, soon),
        ended: await activationsEnding(since, now),
      },
    ];
    for (const { source, ending, ended } of groups) {
      for (const row of ending.rows) {
        const end = new Date(row.ends_at);
        const span = end.getTime() - new Date(row.starts_at).getTime();
        if (end.getTime() - now.getTime() > accessEndingNoticeMs(span)) continue;
        await mailer.queue(db, {
          key: `access-ending:${source}:${row.id}:${end.getTime()}`,
          userId: row.user_id,
          content: { kind: 'access_ending', source, what: row.what, at: end.toISOString() },
        });
      }
      for (const row of ended.rows) {
        const end = new Date(row.ends_at);
        await mailer.queue(db, {
          key: `access-ended:${source}:${row.id}:${end.getTime()}`,
          userId: row.user_id,
          content: { kind: 'access_ended', source, what: row.what, at: end.toISOString() },
        });
      }
    }
  }

  return {
    run,
    ...periodic(run, {
      intervalMs: deps.intervalMs ?? 10 * 60_000,
      runAtStart: true,
      onError: (err) => deps.log.error({ err }, 'access notices could not be checked'),
    }),
  };
}
