-- RINEX in the portal (issue 24; docs/adr, "RINEX in the portal"): a per-network price per station-hour, a ledger
-- kind for what RINEX costs, and the conversion jobs with their progress and result.

-- NULL: the default, derived from the network's token price per day (contract defaultRinexPricePerHour).
ALTER TABLE networks ADD COLUMN rinex_price_per_hour integer CHECK (rinex_price_per_hour BETWEEN 0 AND 1000000);

-- rinex_spend: tokens paid for a job's hours with data; its refund (a failed job) is a 'refund' entry.
ALTER TABLE token_ledger DROP CONSTRAINT token_ledger_kind_check;
ALTER TABLE token_ledger DROP CONSTRAINT token_ledger_check;
ALTER TABLE token_ledger ADD CONSTRAINT token_ledger_kind_check
  CHECK (kind IN ('purchase', 'admin_grant', 'activation_spend', 'rinex_spend', 'refund'));
ALTER TABLE token_ledger ADD CONSTRAINT token_ledger_check
  CHECK ((kind = 'purchase' AND delta > 0) OR (kind IN ('activation_spend', 'rinex_spend') AND delta < 0)
      OR kind IN ('admin_grant', 'refund'));

CREATE TABLE rinex_jobs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Whose history it is in; the member who paid when it belongs to an organisation.
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  organization_id uuid REFERENCES organizations (id) ON DELETE SET NULL,
  -- An admin who made it for the user (support, free of charge).
  created_by_admin uuid REFERENCES users (id) ON DELETE SET NULL,
  station_id uuid REFERENCES stations (id) ON DELETE SET NULL,
  -- As the station was named when the job was made: the archive's key, and what the history shows.
  mountpoint text NOT NULL,
  network_name text NOT NULL,
  window_start timestamptz NOT NULL,
  window_end timestamptz NOT NULL CHECK (window_end > window_start),
  interval_seconds smallint NOT NULL CHECK (interval_seconds IN (1, 5, 15, 30)),
  systems text NOT NULL CHECK (systems ~ '^[GRECJIS]{1,7}$'),
  -- The archive's hours with data at purchase, as [{"mountpoint": …, "hour": …}]: what is charged and converted.
  hours jsonb NOT NULL,
  hours_total integer NOT NULL CHECK (hours_total BETWEEN 1 AND 24),
  hours_with_data integer NOT NULL CHECK (hours_with_data BETWEEN 1 AND hours_total),
  charge text NOT NULL CHECK (charge IN ('tokens', 'plan', 'free', 'admin')),
  tokens_charged integer NOT NULL DEFAULT 0 CHECK (tokens_charged >= 0),
  tokens_refunded integer NOT NULL DEFAULT 0 CHECK (tokens_refunded >= 0),
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed', 'expired')),
  progress real NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 1),
  -- The runner holding a running job renews this; a job whose runner went quiet is queued again.
  heartbeat_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  error_code text,
  error_message text,
  result_name text,
  result_bytes bigint,
  result_epochs integer,
  result_files text[],
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  expires_at timestamptz
);
CREATE INDEX rinex_jobs_user ON rinex_jobs (user_id, created_at DESC);
CREATE INDEX rinex_jobs_organization ON rinex_jobs (organization_id, created_at DESC) WHERE organization_id IS NOT NULL;
CREATE INDEX rinex_jobs_open ON rinex_jobs (created_at) WHERE status IN ('queued', 'running');
CREATE INDEX rinex_jobs_expiring ON rinex_jobs (expires_at) WHERE status = 'done';
