-- Billing a business can run on (docs/adr/0029-invoicing-tax-refunds.md): billing details of users and
-- organisations, the seller's tax settings and rates, gapless invoice and credit-note numbers, refunds.

CREATE TABLE billing_details (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid UNIQUE REFERENCES users (id) ON DELETE CASCADE,
  organization_id uuid UNIQUE REFERENCES organizations (id) ON DELETE CASCADE,
  company_name text,
  address_line1 text NOT NULL,
  address_line2 text,
  postal_code text NOT NULL,
  city text NOT NULL,
  country text NOT NULL,
  vat_number text,
  invoice_email text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((user_id IS NULL) <> (organization_id IS NULL))
);

-- One row: the seller on every invoice and how tax is charged.
CREATE TABLE tax_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  seller_legal_name text NOT NULL DEFAULT '',
  seller_address_line1 text NOT NULL DEFAULT '',
  seller_address_line2 text,
  seller_postal_code text NOT NULL DEFAULT '',
  seller_city text NOT NULL DEFAULT '',
  seller_country text NOT NULL DEFAULT 'NL',
  seller_vat_number text,
  seller_email text,
  invoice_prefix text NOT NULL DEFAULT 'INV',
  prices_include_tax boolean NOT NULL DEFAULT true,
  reverse_charge boolean NOT NULL DEFAULT true,
  stripe_automatic_tax boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL
);
INSERT INTO tax_settings (id) VALUES (true);

-- Rates in basis points (2100 = 21 %), per buyer country.
CREATE TABLE tax_rates (
  country text PRIMARY KEY,
  rate_bp integer NOT NULL CHECK (rate_bp BETWEEN 0 AND 10000),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- What a checkout was quoted: its amount is the total charged, tax included.
ALTER TABLE checkout_sessions ADD COLUMN tax_amount integer NOT NULL DEFAULT 0;
ALTER TABLE checkout_sessions ADD COLUMN tax_rate_bp integer NOT NULL DEFAULT 0;
ALTER TABLE checkout_sessions ADD COLUMN tax_country text;
ALTER TABLE checkout_sessions ADD COLUMN reverse_charge boolean NOT NULL DEFAULT false;

ALTER TABLE payments ADD COLUMN organization_id uuid REFERENCES organizations (id) ON DELETE SET NULL;
ALTER TABLE payments ADD COLUMN refunded_amount integer NOT NULL DEFAULT 0;
ALTER TABLE payments DROP CONSTRAINT payments_status_check;
ALTER TABLE payments ADD CONSTRAINT payments_status_check
  CHECK (status IN ('paid', 'failed', 'refunded', 'partially_refunded'));
CREATE INDEX payments_created ON payments (created_at DESC);

-- The last number given per series; the row is locked by the payment's (or refund's) transaction, so a rolled
-- back payment gives its number back and the series has no gaps.
CREATE TABLE invoice_counters (
  series text PRIMARY KEY,
  last_number integer NOT NULL DEFAULT 0
);

CREATE TABLE refunds (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  payment_id uuid NOT NULL REFERENCES payments (id) ON DELETE CASCADE,
  provider text NOT NULL,
  provider_refund_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('refund', 'dispute')),
  amount integer NOT NULL CHECK (amount > 0),
  reason text,
  tokens_taken_back integer NOT NULL DEFAULT 0,
  tokens_not_recovered integer NOT NULL DEFAULT 0,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider, provider_refund_id)
);
CREATE INDEX refunds_payment ON refunds (payment_id);

-- Invoices and credit notes keep the seller, the buyer and the lines as they were when issued.
CREATE TABLE invoices (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('invoice', 'credit_note')),
  series text NOT NULL,
  sequence integer NOT NULL,
  number text NOT NULL UNIQUE,
  payment_id uuid NOT NULL REFERENCES payments (id) ON DELETE CASCADE,
  refund_id uuid UNIQUE REFERENCES refunds (id) ON DELETE CASCADE,
  user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  organization_id uuid REFERENCES organizations (id) ON DELETE SET NULL,
  currency text NOT NULL,
  net_amount integer NOT NULL,
  tax_amount integer NOT NULL,
  total_amount integer NOT NULL,
  reverse_charge boolean NOT NULL DEFAULT false,
  seller jsonb NOT NULL,
  buyer jsonb NOT NULL,
  lines jsonb NOT NULL,
  issued_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (series, sequence)
);
CREATE UNIQUE INDEX invoices_one_per_payment ON invoices (payment_id) WHERE kind = 'invoice';
CREATE INDEX invoices_user ON invoices (user_id, issued_at DESC);
CREATE INDEX invoices_issued ON invoices (issued_at DESC);
