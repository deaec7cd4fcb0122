import type { LedgerNoteCode, ProductTranslations } from '@portal/contract';
import type { ColumnType, Generated } from 'kysely';

/**
 * Row types of the billing tables (migration 202611231500_billing.sql). They are merged into the shared `DB`
 * interface from here, beside the module that owns them, so parallel work on db/schema.ts does not collide.
 */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type TextArray = ColumnType<string[], string[] | undefined, string[]>;
type LedgerNoteParams = Record<string, string | number>;

export interface ProductsTable {
  id: Generated<string>;
  kind: 'subscription' | 'token';
  name: string;
  description: Generated<string>;
  pricing_table: string;
  price_id: string;
  provider: 'sandbox' | 'stripe';
  provider_product_id: string | null;
  amount: number;
  currency: 'EUR' | 'USD' | 'GBP';
  interval: 'YEARLY' | 'MONTHLY' | 'WEEKLY' | null;
  credits_amount: number | null;
  billable: Generated<boolean>;
  best_choice: Generated<boolean>;
  test_mode: Generated<boolean>;
  preview_mode: Generated<boolean>;
  attributes: TextArray;
  /** Migration 202611281320: subscribers get RINEX without tokens. */
  includes_rinex: Generated<boolean>;
  network_ids: TextArray;
  /** Migration 202611280100: {"nl": {"name", "description", "attributes"}} (contract productTranslationsSchema). */
  translations: ColumnType<ProductTranslations, string | undefined, string>;
  seed_key: string | null;
  archived_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface BillingCustomersTable {
  user_id: string;
  provider: string;
  customer_id: string;
  created_at: Timestamp;
}

export type SubscriptionStatusColumn = 'active' | 'cancelling' | 'cancelled' | 'past_due' | 'expired';

export interface SubscriptionsTable {
  id: Generated<string>;
  user_id: string;
  /** Migration 202611231900: the organisation the subscription belongs to, if any. */
  organization_id: ColumnType<string | null, string | null | undefined, string | null>;
  product_id: string;
  provider: 'sandbox' | 'stripe' | 'manual';
  provider_subscription_id: string | null;
  status: SubscriptionStatusColumn;
  current_period_start: Timestamp;
  current_period_end: Timestamp;
  cancel_at_period_end: Generated<boolean>;
  ended_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CheckoutSessionsTable {
  id: Generated<string>;
  user_id: string;
  organization_id: ColumnType<string | null, string | null | undefined, string | null>;
  product_id: string;
  kind: 'subscription' | 'token';
  provider: 'sandbox' | 'stripe';
  provider_session_id: string | null;
  url: string | null;
  status: Generated<'open' | 'complete' | 'failed' | 'expired'>;
  amount: number;
  currency: 'EUR' | 'USD' | 'GBP';
  credits_amount: number | null;
  subscription_id: string | null;
  created_at: Timestamp;
  completed_at: NullableTimestamp;
  /** Migration 202611261500: the tax quoted; `amount` is the total charged. */
  tax_amount: Generated<number>;
  tax_rate_bp: Generated<number>;
  tax_country: ColumnType<string | null, string | null | undefined, string | null>;
  reverse_charge: Generated<boolean>;
}

export interface PaymentsTable {
  id: Generated<string>;
  user_id: string;
  provider: string;
  provider_payment_id: string;
  checkout_session_id: string | null;
  subscription_id: string | null;
  description: string;
  amount: number;
  currency: 'EUR' | 'USD' | 'GBP';
  status: 'paid' | 'failed' | 'refunded' | 'partially_refunded';
  /** Migration 202611261500. */
  organization_id: ColumnType<string | null, string | null | undefined, string | null>;
  refunded_amount: Generated<number>;
  invoice_number: string | null;
  invoice_url: string | null;
  created_at: Timestamp;
}

export interface TokenBalancesTable {
  user_id: string;
  balance: Generated<number>;
  updated_at: Timestamp;
}

export interface TokenLedgerTable {
  id: Generated<number>;
  user_id: string;
  kind: 'purchase' | 'admin_grant' | 'activation_spend' | 'rinex_spend' | 'refund' | 'organization_transfer';
  delta: number;
  balance_after: number;
  reference_id: string | null;
  note: string | null;
  /** Migration 202611281615: the note as a code and its values, worded by the SPA in the reader's language. */
  note_code: ColumnType<LedgerNoteCode | null, LedgerNoteCode | null | undefined, never>;
  note_params: ColumnType<LedgerNoteParams | null, string | null | undefined, never>;
  created_by: string | null;
  created_at: Timestamp;
}

export interface ProviderEventsTable {
  provider: string;
  event_id: string;
  type: string;
  object_id: string | null;
  received_at: Timestamp;
  processed_at: NullableTimestamp;
}

export interface SandboxObjectsTable {
  id: string;
  kind: string;
  data: ColumnType<unknown, string, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

declare module '../../db/schema.ts' {
  interface DB {
    products: ProductsTable;
    billing_customers: BillingCustomersTable;
    subscriptions: SubscriptionsTable;
    checkout_sessions: CheckoutSessionsTable;
    payments: PaymentsTable;
    token_balances: TokenBalancesTable;
    token_ledger: TokenLedgerTable;
    provider_events: ProviderEventsTable;
    sandbox_objects: SandboxObjectsTable;
  }
}
