-- The portal's own e-mail (issue 21; docs/adr/0025-mail.md): a durable outbox that is also the send queue, and
-- each user's notification preferences.

CREATE TABLE mail_outbox (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- One mail per event (an invite, a payment, a subscription's period…): queueing the same event again adds nothing.
  idempotency_key text NOT NULL UNIQUE,
  kind text NOT NULL,
  user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  recipient text NOT NULL,
  locale text NOT NULL CHECK (locale IN ('en', 'nl')),
  -- Rendered when queued, so what was sent is what the outbox shows.
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text NOT NULL,
  -- Extra headers (List-Unsubscribe) and the event's facts, for attachments made at sending time.
  headers jsonb NOT NULL DEFAULT '{}',
  data jsonb NOT NULL DEFAULT '{}',
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
  -- 'smtp', or 'log' when no SMTP_URL is configured and the mail is only kept here and written to the log.
  transport text CHECK (transport IN ('smtp', 'log')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  -- A worker holds a 'sending' mail until then; a worker that died leaves it due again after it.
  lease_until timestamptz,
  last_error text,
  message_id text,
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE status IN ('queued', 'sending');
CREATE INDEX mail_outbox_created ON mail_outbox (created_at DESC);

-- No row: every optional mail on, English, the default threshold.
CREATE TABLE notification_preferences (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  locale text NOT NULL DEFAULT 'en' CHECK (locale IN ('en', 'nl')),
  access_ending boolean NOT NULL DEFAULT true,
  low_balance boolean NOT NULL DEFAULT true,
  low_balance_threshold integer NOT NULL DEFAULT 10 CHECK (low_balance_threshold BETWEEN 0 AND 100000000),
  renewal_failed boolean NOT NULL DEFAULT true,
  rinex_ready boolean NOT NULL DEFAULT true,
  membership boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL DEFAULT now()
);
