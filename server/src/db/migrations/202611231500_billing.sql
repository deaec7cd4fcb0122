-- Billing: products and prices, subscriptions, checkout sessions, payments, the append-only token ledger,
-- provider event idempotency. Access grants live in the ntrip module's access_grants table; billing writes them.
-- network_ids are not foreign keys: the catalogue owns networks and retires rather than deletes them.

CREATE TABLE products (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('subscription', 'token')),
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  pricing_table text NOT NULL,
  price_id text NOT NULL UNIQUE,
  provider text NOT NULL CHECK (provider IN ('sandbox', 'stripe')),
  provider_product_id text,
  amount integer NOT NULL CHECK (amount >= 0),
  currency text NOT NULL CHECK (currency IN ('EUR', 'USD', 'GBP')),
  interval text CHECK (interval IN ('YEARLY', 'MONTHLY', 'WEEKLY')),
  credits_amount integer CHECK (credits_amount > 0),
  billable boolean NOT NULL DEFAULT true,
  best_choice boolean NOT NULL DEFAULT false,
  test_mode boolean NOT NULL DEFAULT false,
  preview_mode boolean NOT NULL DEFAULT false,
  attributes text[] NOT NULL DEFAULT '{}',
  network_ids uuid[] NOT NULL DEFAULT '{}',
  seed_key text UNIQUE,
  archived_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'subscription' AND interval IS NOT NULL AND credits_amount IS NULL)
      OR (kind = 'token' AND interval IS NULL AND credits_amount IS NOT NULL AND billable))
);

-- The customer a user is at a provider (Stripe customer id; the sandbox makes its own).
CREATE TABLE billing_customers (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider text NOT NULL,
  customer_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, provider),
  UNIQUE (provider, customer_id)
);

CREATE TABLE subscriptions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  product_id uuid NOT NULL REFERENCES products (id),
  provider text NOT NULL CHECK (provider IN ('sandbox', 'stripe', 'manual')),
  provider_subscription_id text UNIQUE,
  status text NOT NULL CHECK (status IN ('active', 'cancelling', 'cancelled', 'past_due', 'expired')),
  current_period_start timestamptz NOT NULL,
  current_period_end timestamptz NOT NULL,
  cancel_at_period_end boolean NOT NULL DEFAULT false,
  ended_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX subscriptions_user ON subscriptions (user_id, created_at DESC);
CREATE INDEX subscriptions_due ON subscriptions (current_period_end) WHERE status IN ('active', 'cancelling', 'past_due');

CREATE TABLE checkout_sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  product_id uuid NOT NULL REFERENCES products (id),
  kind text NOT NULL CHECK (kind IN ('subscription', 'token')),
  provider text NOT NULL CHECK (provider IN ('sandbox', 'stripe')),
  provider_session_id text UNIQUE,
  url text,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'complete', 'failed', 'expired')),
  amount integer NOT NULL,
  currency text NOT NULL,
  credits_amount integer,
  subscription_id uuid REFERENCES subscriptions (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);
CREATE INDEX checkout_sessions_user ON checkout_sessions (user_id, created_at DESC);

CREATE TABLE payments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider text NOT NULL,
  provider_payment_id text NOT NULL,
  checkout_session_id uuid REFERENCES checkout_sessions (id),
  subscription_id uuid REFERENCES subscriptions (id),
  description text NOT NULL,
  amount integer NOT NULL,
  currency text NOT NULL,
  status text NOT NULL CHECK (status IN ('paid', 'failed', 'refunded')),
  invoice_number text,
  invoice_url text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider, provider_payment_id)
);
CREATE INDEX payments_user ON payments (user_id, created_at DESC);

-- One row per user, locked (SELECT … FOR UPDATE) by every ledger append so concurrent writers serialise;
-- balance is the running sum of token_ledger.delta, kept in the same transaction and never negative.
CREATE TABLE token_balances (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  balance integer NOT NULL DEFAULT 0 CHECK (balance >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE token_ledger (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('purchase', 'admin_grant', 'activation_spend', 'refund')),
  delta integer NOT NULL CHECK (delta <> 0),
  balance_after integer NOT NULL CHECK (balance_after >= 0),
  -- What caused the entry (checkout session, activation, admin action); unique per kind so a replay adds nothing.
  reference_id text,
  note text,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- refund: tokens returned for an activation (+) or taken back with a refunded purchase (-).
  CHECK ((kind = 'purchase' AND delta > 0) OR (kind = 'activation_spend' AND delta < 0)
      OR kind IN ('admin_grant', 'refund'))
);
CREATE UNIQUE INDEX token_ledger_reference ON token_ledger (kind, reference_id) WHERE reference_id IS NOT NULL;
CREATE INDEX token_ledger_user ON token_ledger (user_id, id DESC);

-- Append-only: history is corrected by new entries (refund, negative admin grant), never by editing.
CREATE FUNCTION token_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'token_ledger is append-only';
END;
$$;
CREATE TRIGGER token_ledger_no_update BEFORE UPDATE ON token_ledger
  FOR EACH ROW EXECUTE FUNCTION token_ledger_append_only();

-- Every provider event id seen, so a replayed webhook is recognised; the effects are idempotent regardless.
CREATE TABLE provider_events (
  provider text NOT NULL,
  event_id text NOT NULL,
  type text NOT NULL,
  object_id text,
  received_at timestamptz NOT NULL DEFAULT now(),
  processed_at timestamptz,
  PRIMARY KEY (provider, event_id)
);

-- The sandbox provider's own records (its checkout sessions, subscriptions, invoices), as a real provider keeps them.
CREATE TABLE sandbox_objects (
  id text PRIMARY KEY,
  kind text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
