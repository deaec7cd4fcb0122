import type { ColumnType, Generated } from 'kysely';

/** Row types of the mail tables (migration 202611261100_mail.sql), merged into the shared `DB` interface. */
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, string | undefined, string>;
/** The webhooks module's WebhookOwner, written out: this file is read wherever the schema is, without the modules. */
type WebhookOwner = { userId: string } | { organizationId: string };

export type MailStatus = 'queued' | 'sending' | 'sent' | 'failed';

export interface MailOutboxTable {
  id: Generated<string>;
  idempotency_key: string;
  kind: string;
  user_id: string | null;
  recipient: string;
  locale: 'en' | 'nl';
  subject: string;
  text_body: string;
  html_body: string;
  headers: Json<Record<string, string>>;
  data: Json<Record<string, unknown>>;
  status: Generated<MailStatus>;
  transport: 'smtp' | 'log' | null;
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  lease_until: NullableTimestamp;
  last_error: string | null;
  message_id: string | null;
  sent_at: NullableTimestamp;
  created_at: Generated<Date>;
}

export interface NotificationPreferencesTable {
  user_id: string;
  locale: Generated<'en' | 'nl'>;
  access_ending: Generated<boolean>;
  low_balance: Generated<boolean>;
  low_balance_threshold: Generated<number>;
  renewal_failed: Generated<boolean>;
  rinex_ready: Generated<boolean>;
  membership: Generated<boolean>;
  station_alerts: Generated<boolean>;
  updated_at: Generated<Date>;
}

/** One station incident whose outage alerts were queued (migration 202611281614_station_alerts.sql). */
export interface StationAlertsTable {
  station_id: string;
  change_id: number;
  started_at: ColumnType<Date, Date | string, Date | string>;
  recipients: Json<string[]>;
  /** The webhook owners told "station.down" (migration 202611282000_webhook_events.sql). */
  event_owners: Json<WebhookOwner[]>;
  down_queued_at: ColumnType<Date, Date | string, Date | string>;
  ended_at: NullableTimestamp;
  up_queued_at: NullableTimestamp;
}

/** One network outage: every station of the network in an alerted incident (migration 202611282000_webhook_events.sql). */
export interface NetworkAlertsTable {
  id: Generated<string>;
  network_id: string;
  started_at: ColumnType<Date, Date | string, Date | string>;
  event_owners: Json<WebhookOwner[]>;
  ended_at: NullableTimestamp;
}

declare module '../../db/schema.ts' {
  interface DB {
    network_alerts: NetworkAlertsTable;
    mail_outbox: MailOutboxTable;
    notification_preferences: NotificationPreferencesTable;
    station_alerts: StationAlertsTable;
  }
}
