CREATE TABLE networks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9-]+$'),
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  operator text NOT NULL DEFAULT '',
  region text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'maintenance', 'retired')),
  is_public boolean NOT NULL DEFAULT true,
  token_price_per_day integer NOT NULL DEFAULT 0 CHECK (token_price_per_day >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE stations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  network_id uuid NOT NULL REFERENCES networks (id) ON DELETE CASCADE,
  mountpoint text NOT NULL UNIQUE CHECK (mountpoint ~ '^[A-Za-z0-9_-]{1,64}$'),
  identifier text NOT NULL DEFAULT '',
  country text NOT NULL CHECK (country ~ '^[A-Z]{3}$'),
  latitude double precision NOT NULL CHECK (latitude BETWEEN -90 AND 90),
  longitude double precision NOT NULL CHECK (longitude BETWEEN -180 AND 180),
  height_m double precision,
  receiver text NOT NULL DEFAULT '',
  antenna text NOT NULL DEFAULT '',
  format text NOT NULL DEFAULT 'RTCM 3.3',
  format_details text NOT NULL DEFAULT '',
  nav_system text NOT NULL DEFAULT 'GPS',
  carrier smallint NOT NULL DEFAULT 2 CHECK (carrier IN (0, 1, 2)),
  bitrate integer NOT NULL DEFAULT 0 CHECK (bitrate >= 0),
  status text NOT NULL DEFAULT 'offline' CHECK (status IN ('online', 'offline')),
  last_data_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, network_id)
);
-- Rovers type mountpoints by hand: two names differing only in case would be a support call waiting to happen.
CREATE UNIQUE INDEX stations_mountpoint_lower ON stations (lower(mountpoint));
CREATE INDEX stations_network ON stations (network_id, mountpoint);
CREATE INDEX stations_position ON stations (longitude, latitude);

CREATE TABLE feeds (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  network_id uuid NOT NULL REFERENCES networks (id) ON DELETE CASCADE,
  station_id uuid NOT NULL UNIQUE,
  kind text NOT NULL CHECK (kind IN ('push', 'pull')),
  enabled boolean NOT NULL DEFAULT true,
  source_password_hash text,
  upstream_host text,
  upstream_port integer CHECK (upstream_port BETWEEN 1 AND 65535),
  upstream_mountpoint text,
  upstream_username text,
  upstream_password_enc text,
  upstream_ntrip_version smallint CHECK (upstream_ntrip_version IN (1, 2)),
  status text NOT NULL DEFAULT 'idle' CHECK (status IN ('idle', 'connecting', 'connected', 'error')),
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- A feed belongs to its station's network; moving the station moves the feed with it.
  CONSTRAINT feeds_station FOREIGN KEY (station_id, network_id) REFERENCES stations (id, network_id)
    ON UPDATE CASCADE ON DELETE CASCADE,
  CONSTRAINT feeds_push_has_password CHECK (kind <> 'push' OR source_password_hash IS NOT NULL),
  CONSTRAINT feeds_pull_has_upstream CHECK (
    kind <> 'pull' OR (upstream_host IS NOT NULL AND upstream_port IS NOT NULL
      AND upstream_mountpoint IS NOT NULL AND upstream_ntrip_version IS NOT NULL)
  )
);
CREATE INDEX feeds_network ON feeds (network_id);
