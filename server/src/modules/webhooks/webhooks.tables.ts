import type { WebhookEvent } from '@portal/contract';
import type { ColumnType, Generated } from 'kysely';

/** Row types of migration 202611281644_webhooks.sql, merged into the shared DB beside their module. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface WebhookEndpointsTable {
  id: Generated<string>;
  /** Who made it; for a person's endpoint, its owner. */
  user_id: string;
  /** Set for an organisation's endpoint (migration 202611282000_webhook_events.sql). */
  organization_id: string | null;
  url: string;
  /** JSON text in, parsed array out. */
  events: ColumnType<WebhookEvent[], string, string>;
  secret: string;
  created_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  endpoint_id: string;
  event: string;
  event_key: string;
  body: string;
  status: Generated<'pending' | 'succeeded' | 'failed'>;
  attempts: Generated<number>;
  created_at: Timestamp;
  next_attempt_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  last_status_code: number | null;
  last_response: string | null;
}

declare module '../../db/schema.ts' {
  interface DB {
    webhook_endpoints: WebhookEndpointsTable;
    webhook_deliveries: WebhookDeliveriesTable;
  }
}
