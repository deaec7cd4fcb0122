import type { NotificationPreferences } from '@portal/contract';
import { type Selectable, sql } from 'kysely';
import type { Database } from '../../db/client.ts';
import { createUsersRepo } from '../users/index.ts';
import type { MailOutboxTable, NotificationPreferencesTable } from './mail.tables.ts';
import './mail.tables.ts';

export interface QueuedMail {
  idempotencyKey: string;
  kind: string;
  userId: string | null;
  recipient: string;
  locale: 'en' | 'nl';
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  data: Record<string, unknown>;
}

/** A mail claimed for sending: the outbox columns the worker sends it with. */
export type ClaimedMail = Pick<
  Selectable<MailOutboxTable>,
  | 'id'
  | 'idempotency_key'
  | 'kind'
  | 'recipient'
  | 'subject'
  | 'text_body'
  | 'html_body'
  | 'headers'
  | 'data'
  | 'attempts'
>;

type PreferencesColumns = Omit<NotificationPreferencesTable, 'user_id' | 'updated_at'>;
const COLUMN_OF: Record<keyof NotificationPreferences, keyof PreferencesColumns> = {
  locale: 'locale',
  accessEnding: 'access_ending',
  lowBalance: 'low_balance',
  lowBalanceThreshold: 'low_balance_threshold',
  renewalFailed: 'renewal_failed',
  rinexReady: 'rinex_ready',
  membership: 'membership',
  stationAlerts: 'station_alerts',
};

/** What a user without a row gets (the columns' defaults in the migration). */
export const DEFAULT_PREFERENCES: NotificationPreferences = {
  locale: 'en',
  accessEnding: true,
  lowBalance: true,
  lowBalanceThreshold: 10,
  renewalFailed: true,
  rinexReady: true,
  membership: true,
  stationAlerts: true,
};

const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);

export type MailRepo = ReturnType<typeof createMailRepo>;

export function createMailRepo(db: Database) {
  return {
    /** Adds the mail unless one with its key exists; true when added. Runs in the caller's transaction. */
    async enqueue(mail: QueuedMail, trx: Database = db): Promise<boolean> {
      const result = await trx
        .insertInto('mail_outbox')
        .values({
          idempotency_key: mail.idempotencyKey,
          kind: mail.kind,
          user_id: mail.userId,
          recipient: mail.recipient,
          locale: mail.locale,
          subject: mail.subject,
          text_body: mail.text,
          html_body: mail.html,
          headers: JSON.stringify(mail.headers),
          data: JSON.stringify(mail.data),
        })
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .returning('id')
        .executeTakeFirst();
      return result !== undefined;
    },

    async exists(idempotencyKey: string, trx: Database = db): Promise<boolean> {
      const row = await trx
        .selectFrom('mail_outbox')
        .select('id')
        .where('idempotency_key', '=', idempotencyKey)
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Takes the next due mail: queued and due, or held by a worker whose lease ran out (it died mid-send). SKIP
     * LOCKED lets several processes share the queue on PostgreSQL; PGlite has one connection anyway.
     */
    async claim(now: Date, leaseUntil: Date): Promise<ClaimedMail | undefined> {
      const r = await sql<ClaimedMail>`
        UPDATE mail_outbox SET status = 'sending', attempts = attempts + 1, lease_until = ${leaseUntil}
        WHERE id = (
          SELECT id FROM mail_outbox
          WHERE (status = 'queued' AND next_attempt_at <= ${now}) OR (status = 'sending' AND lease_until < ${now})
          ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id, idempotency_key, kind, recipient, subject, text_body, html_body, headers, data, attempts`.execute(
        db,
      );
      const row = r.rows[0];
      return row && { ...row, headers: json(row.headers), data: json(row.data) };
    },

    async markSent(id: string, transport: 'smtp' | 'log', messageId: string, now: Date): Promise<void> {
      await db
        .updateTable('mail_outbox')
        .set({ status: 'sent', transport, message_id: messageId, sent_at: now, lease_until: null, last_error: null })
        .where('id', '=', id)
        .execute();
    },

    /** A failed try: due again at `retryAt`, or failed for good when there is none. */
    async markFailed(id: string, error: string, retryAt: Date | null): Promise<void> {
      await db
        .updateTable('mail_outbox')
        .set({
          status: retryAt ? 'queued' : 'failed',
          lease_until: null,
          last_error: error.slice(0, 2000),
          ...(retryAt && { next_attempt_at: retryAt }),
        })
        .where('id', '=', id)
        .execute();
    },

    async page(limit: number, offset: number) {
      const [rows, count] = await Promise.all([
        db
          .selectFrom('mail_outbox')
          .select([
            'id',
            'kind',
            'recipient',
            'locale',
            'subject',
            'text_body',
            'status',
            'transport',
            'attempts',
            'last_error',
            'created_at',
            'sent_at',
          ])
          .orderBy('created_at', 'desc')
          .orderBy('id')
          .limit(limit)
          .offset(offset)
          .execute(),
        db
          .selectFrom('mail_outbox')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },

    async preferences(userId: string, trx: Database = db): Promise<NotificationPreferences> {
      const row = await trx
        .selectFrom('notification_preferences')
        .selectAll()
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!row) return { ...DEFAULT_PREFERENCES };
      return {
        locale: row.locale,
        accessEnding: row.access_ending,
        lowBalance: row.low_balance,
        lowBalanceThreshold: row.low_balance_threshold,
        renewalFailed: row.renewal_failed,
        rinexReady: row.rinex_ready,
        membership: row.membership,
        stationAlerts: row.station_alerts,
      };
    },

    async updatePreferences(userId: string, patch: Partial<NotificationPreferences>): Promise<void> {
      const values: Partial<Record<keyof PreferencesColumns, unknown>> = {};
      for (const [key, value] of Object.entries(patch)) {
        if (value !== undefined) values[COLUMN_OF[key as keyof NotificationPreferences]] = value;
      }
      const columns = values as Partial<PreferencesColumns>;
      await db
        .insertInto('notification_preferences')
        .values({ user_id: userId, ...columns } as never)
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...columns, updated_at: sql`now()` } as never))
        .execute();
    },

    async userEmail(userId: string, trx: Database = db): Promise<string | null> {
      return createUsersRepo(trx).emailOf(userId);
    },
  };
}
