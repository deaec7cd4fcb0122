-- Refused rover attempts, and rovers that got no data in their first seconds, as the caster aggregates them per
-- account, reason and minute (issue 17): a brute-force or a reconnect storm adds a row per minute and reason, not one
-- per attempt. `detail` holds what the owner needs to fix it (the network and when access ended, the connection
-- limit and the other sessions, the throttle that refused it …); the columns of the last attempt are kept.
CREATE TABLE ntrip_refusals (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES ntrip_accounts (id) ON DELETE CASCADE,
  reason text NOT NULL CHECK (reason IN ('wrong_password', 'account_disabled', 'no_access', 'too_many_connections',
    'unknown_mountpoint', 'mountpoint_offline', 'near_no_position', 'throttled')),
  minute timestamptz NOT NULL,
  count integer NOT NULL CHECK (count > 0),
  first_at timestamptz NOT NULL,
  last_at timestamptz NOT NULL,
  mountpoint text NOT NULL,
  remote_address text NOT NULL,
  user_agent text,
  ntrip_version smallint NOT NULL CHECK (ntrip_version IN (1, 2)),
  detail jsonb NOT NULL DEFAULT '{}',
  UNIQUE (account_id, reason, minute)
);
CREATE INDEX ntrip_refusals_account_recent ON ntrip_refusals (account_id, last_at DESC);

-- Attempts whose username names no account: only admins see them, per address, reason and minute, with a few of
-- the names tried. '*' stands for the addresses a storm of made-up names had to be folded into.
CREATE TABLE ntrip_login_failures (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  remote_address text NOT NULL,
  reason text NOT NULL CHECK (reason IN ('unknown_username', 'throttled', 'wrong_password', 'account_disabled',
    'no_access', 'too_many_connections', 'unknown_mountpoint', 'mountpoint_offline', 'near_no_position')),
  minute timestamptz NOT NULL,
  count integer NOT NULL CHECK (count > 0),
  first_at timestamptz NOT NULL,
  last_at timestamptz NOT NULL,
  usernames text[] NOT NULL DEFAULT '{}',
  mountpoint text NOT NULL,
  user_agent text,
  ntrip_version smallint NOT NULL CHECK (ntrip_version IN (1, 2)),
  UNIQUE (remote_address, reason, minute)
);
CREATE INDEX ntrip_login_failures_recent ON ntrip_login_failures (last_at DESC);
