-- The RTCM archive (issue 23; docs/adr, "RTCM archive"): how long each network's hours are kept, and one index
-- row per station and UTC hour the archive holds. The caster adds to a row every few seconds while it archives the
-- hour; the retention sweeper deletes the hour's stored data and then its row.
ALTER TABLE networks ADD COLUMN archive_retention_days integer NOT NULL DEFAULT 30
  CHECK (archive_retention_days BETWEEN 1 AND 3650);

CREATE TABLE archive_hours (
  -- The mountpoint the hour was archived under: its key in the archive store, kept if the station is renamed.
  mountpoint text NOT NULL,
  hour timestamptz NOT NULL CHECK (extract(epoch FROM hour)::bigint % 3600 = 0),
  station_id uuid REFERENCES stations (id) ON DELETE SET NULL,
  -- RTCM bytes and frames archived, and the compressed bytes stored for them.
  bytes bigint NOT NULL DEFAULT 0 CHECK (bytes >= 0),
  frames bigint NOT NULL DEFAULT 0 CHECK (frames >= 0),
  stored_bytes bigint NOT NULL DEFAULT 0 CHECK (stored_bytes >= 0),
  -- Frames received for the hour and not archived (the caster's archive queue was full, or the store failed).
  dropped_frames bigint NOT NULL DEFAULT 0 CHECK (dropped_frames >= 0),
  -- Arrival time of the first and last frame archived.
  first_frame_at timestamptz,
  last_frame_at timestamptz,
  -- Observation epochs (UTC) of the first and last observation message archived; NULL when none carried one.
  first_epoch timestamptz,
  last_epoch timestamptz,
  message_types integer[] NOT NULL DEFAULT '{}',
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (mountpoint, hour)
);
CREATE INDEX archive_hours_station ON archive_hours (station_id, hour);
CREATE INDEX archive_hours_hour ON archive_hours (hour);
