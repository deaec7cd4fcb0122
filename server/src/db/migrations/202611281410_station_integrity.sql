-- Station integrity monitor (issue 33, ADR 0063): what the caster found, an admin's decisions, and every change of a
-- station's state recorded for the status page's history.
ALTER TABLE networks
  ADD COLUMN integrity_moved_horizontal_m double precision NOT NULL DEFAULT 0.02
    CHECK (integrity_moved_horizontal_m > 0 AND integrity_moved_horizontal_m <= 10),
  ADD COLUMN integrity_moved_vertical_m double precision NOT NULL DEFAULT 0.04
    CHECK (integrity_moved_vertical_m > 0 AND integrity_moved_vertical_m <= 10),
  ADD COLUMN integrity_good_period_s integer NOT NULL DEFAULT 60
    CHECK (integrity_good_period_s BETWEEN 0 AND 86400);

ALTER TABLE stations
  ADD COLUMN integrity_state text NOT NULL DEFAULT 'ok' CHECK (integrity_state IN ('ok', 'warning', 'failing')),
  -- [{code, level, message, since}] as the caster reported them.
  ADD COLUMN integrity_reasons jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN integrity_excluded boolean NOT NULL DEFAULT false,
  -- The reference position (ECEF metres) the station sent last, which a re-survey accepts.
  ADD COLUMN integrity_position jsonb,
  ADD COLUMN integrity_override boolean NOT NULL DEFAULT false,
  ADD COLUMN integrity_acknowledged_at timestamptz,
  ADD COLUMN survey_revision integer NOT NULL DEFAULT 0;

CREATE TABLE station_state_changes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  station_id uuid NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  online boolean NOT NULL,
  integrity text NOT NULL,
  -- The reason codes of a failing or warning state, comma-separated; empty when ok.
  causes text NOT NULL DEFAULT ''
);
CREATE INDEX station_state_changes_station ON station_state_changes (station_id, at);
CREATE INDEX station_state_changes_at ON station_state_changes (at);

-- Every path that changes a station's status or integrity (a caster's report, the expiry of a silent caster's
-- stations) leaves its row, so the history cannot miss one.
CREATE FUNCTION record_station_state_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM NEW.status OR OLD.integrity_state IS DISTINCT FROM NEW.integrity_state
    OR (NEW.integrity_state <> 'ok' AND OLD.integrity_reasons IS DISTINCT FROM NEW.integrity_reasons
      AND (SELECT string_agg(r->>'code', ',' ORDER BY r->>'code') FROM jsonb_array_elements(OLD.integrity_reasons) r)
        IS DISTINCT FROM
        (SELECT string_agg(r->>'code', ',' ORDER BY r->>'code') FROM jsonb_array_elements(NEW.integrity_reasons) r))
  THEN
    INSERT INTO station_state_changes (station_id, online, integrity, causes)
    VALUES (NEW.id, NEW.status = 'online', NEW.integrity_state,
      coalesce((SELECT string_agg(r->>'code', ',' ORDER BY r->>'code') FROM jsonb_array_elements(NEW.integrity_reasons) r), ''));
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER stations_state_change AFTER INSERT OR UPDATE OF status, integrity_state, integrity_reasons ON stations
  FOR EACH ROW EXECUTE FUNCTION record_station_state_change();
