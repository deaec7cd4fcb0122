-- NTRIP accounts, the access grants that say which networks they may use and when, and the caster's
-- connection log. Billing and the accounts module write grants; the caster only reads them (docs/data-model.md).

CREATE TABLE ntrip_accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  owner_user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- Sent in Basic auth and typed into receivers: no ':' (it ends the username) and no spaces.
  username text NOT NULL CHECK (username ~ '^[A-Za-z0-9._@+-]{3,64}$'),
  password_hash text NOT NULL,
  label text NOT NULL DEFAULT '',
  enabled boolean NOT NULL DEFAULT true,
  max_connections integer NOT NULL DEFAULT 1 CHECK (max_connections BETWEEN 1 AND 1000),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
-- Receivers and people type usernames by hand; two differing only in case would log in to the wrong account.
-- Deleted accounts keep their name so a new account never inherits another's connection log.
CREATE UNIQUE INDEX ntrip_accounts_username ON ntrip_accounts (lower(username));
CREATE INDEX ntrip_accounts_owner ON ntrip_accounts (owner_user_id, created_at);

CREATE TABLE access_grants (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- NULL: the grant covers every account of the owner (a subscription).
  account_id uuid REFERENCES ntrip_accounts (id) ON DELETE CASCADE,
  owner_user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  network_id uuid NOT NULL REFERENCES networks (id) ON DELETE CASCADE,
  valid_from timestamptz NOT NULL,
  valid_until timestamptz NOT NULL,
  source text NOT NULL CHECK (source IN ('subscription', 'tokens', 'manual')),
  reference_id text,
  ended_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (valid_until >= valid_from)
);
CREATE INDEX access_grants_account ON access_grants (account_id, network_id) WHERE ended_at IS NULL;
CREATE INDEX access_grants_owner ON access_grants (owner_user_id, network_id) WHERE ended_at IS NULL;
CREATE INDEX access_grants_reference ON access_grants (source, reference_id);

CREATE TABLE ntrip_sessions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES ntrip_accounts (id) ON DELETE CASCADE,
  mountpoint text NOT NULL,
  remote_address text NOT NULL,
  started_at timestamptz NOT NULL,
  ended_at timestamptz,
  bytes_sent bigint NOT NULL DEFAULT 0 CHECK (bytes_sent >= 0),
  end_reason text,
  last_gga_lat double precision CHECK (last_gga_lat BETWEEN -90 AND 90),
  last_gga_lon double precision CHECK (last_gga_lon BETWEEN -180 AND 180)
);
CREATE INDEX ntrip_sessions_account ON ntrip_sessions (account_id, started_at DESC);

-- The caster caches authorisation decisions. Any change to accounts or grants, by whichever module or process
-- (billing writes grants in its own transactions), moves this counter; casters poll it once a second and drop
-- their cache when it moved. A counter row rather than a sequence because it must move only on commit.
CREATE TABLE ntrip_auth_epoch (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  epoch bigint NOT NULL DEFAULT 0
);
INSERT INTO ntrip_auth_epoch (id, epoch) VALUES (true, 0);

CREATE FUNCTION ntrip_auth_epoch_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ntrip_auth_epoch SET epoch = epoch + 1 WHERE id;
  RETURN NULL;
END
$$;

CREATE TRIGGER ntrip_accounts_changed AFTER INSERT OR UPDATE OR DELETE ON ntrip_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION ntrip_auth_epoch_bump();
CREATE TRIGGER access_grants_changed AFTER INSERT OR UPDATE OR DELETE ON access_grants
  FOR EACH STATEMENT EXECUTE FUNCTION ntrip_auth_epoch_bump();
