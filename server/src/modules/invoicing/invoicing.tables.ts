import type { ColumnType, Generated } from 'kysely';

/** Row types of migration 202611261500_invoicing.sql, merged into `DB` beside the module that owns them. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export interface BillingDetailsTable {
  id: Generated<string>;
  user_id: string | null;
  organization_id: string | null;
  company_name: string | null;
  address_line1: string;
  address_line2: string | null;
  postal_code: string;
  city: string;
  country: string;
  vat_number: string | null;
  invoice_email: string | null;
  updated_at: Timestamp;
  /** Migration 202611281445: the number a registry or an admin confirmed; verified while it equals vat_number. */
  vat_verified_number: ColumnType<string | null, string | null | undefined, string | null>;
  vat_verified_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  vat_verified_source: ColumnType<'registry' | 'admin' | null, 'registry' | 'admin' | null | undefined>;
  vat_verified_by: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface TaxSettingsTable {
  id: Generated<boolean>;
  seller_legal_name: string;
  seller_address_line1: string;
  seller_address_line2: string | null;
  seller_postal_code: string;
  seller_city: string;
  seller_country: string;
  seller_vat_number: string | null;
  seller_email: string | null;
  invoice_prefix: string;
  prices_include_tax: boolean;
  reverse_charge: boolean;
  stripe_automatic_tax: boolean;
  updated_at: Timestamp;
  updated_by: string | null;
}

export interface TaxRatesTable {
  country: string;
  rate_bp: number;
  updated_at: Timestamp;
}

export interface InvoiceCountersTable {
  series: string;
  last_number: number;
}

export interface RefundsTable {
  id: Generated<string>;
  payment_id: string;
  provider: string;
  provider_refund_id: string;
  kind: 'refund' | 'dispute';
  amount: number;
  reason: string | null;
  tokens_taken_back: Generated<number>;
  tokens_not_recovered: Generated<number>;
  created_by: string | null;
  created_at: Timestamp;
}

/** A party on an invoice, as it was when the invoice was issued. */
export interface InvoiceParty {
  name: string;
  companyName: string | null;
  addressLines: string[];
  country: string | null;
  vatNumber: string | null;
  email: string | null;
}

export interface InvoiceLine {
  description: string;
  quantity: number;
  /** Minor units, tax excluded. */
  netAmount: number;
  rateBp: number;
  taxAmount: number;
}

export interface InvoicesTable {
  id: Generated<string>;
  kind: 'invoice' | 'credit_note';
  series: string;
  sequence: number;
  number: string;
  payment_id: string;
  refund_id: string | null;
  user_id: string | null;
  organization_id: string | null;
  currency: 'EUR' | 'USD' | 'GBP';
  net_amount: number;
  tax_amount: number;
  total_amount: number;
  reverse_charge: boolean;
  seller: Json<InvoiceParty>;
  buyer: Json<InvoiceParty>;
  lines: Json<InvoiceLine[]>;
  issued_at: Timestamp;
}

declare module '../../db/schema.ts' {
  interface DB {
    billing_details: BillingDetailsTable;
    tax_settings: TaxSettingsTable;
    tax_rates: TaxRatesTable;
    invoice_counters: InvoiceCountersTable;
    refunds: RefundsTable;
    invoices: InvoicesTable;
  }
}
