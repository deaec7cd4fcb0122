-- Outage alerts (issue 33, docs/adr/0070-outage-alerts.md): a switch per user, and one row per station incident
-- whose "down" mails were queued, claimed in the transaction that queues them so two API processes send one pair.
ALTER TABLE notification_preferences ADD COLUMN station_alerts boolean NOT NULL DEFAULT true;

CREATE TABLE station_alerts (
  station_id uuid NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
  -- The station_state_changes row that began the incident (the first bad state after a good one).
  change_id bigint NOT NULL,
  started_at timestamptz NOT NULL,
  -- The users whose "down" mail was queued: the "up" mail goes to them and no one else.
  recipients jsonb NOT NULL DEFAULT '[]',
  down_queued_at timestamptz NOT NULL,
  -- Set, with the "up" mails queued, when the station is good again.
  ended_at timestamptz,
  up_queued_at timestamptz,
  PRIMARY KEY (station_id, change_id)
);
CREATE INDEX station_alerts_open ON station_alerts (station_id) WHERE up_queued_at IS NULL;

-- The rovers a station served are looked up by the end of their sessions (the caster logs a session when it ends).
CREATE INDEX ntrip_sessions_ended ON ntrip_sessions (ended_at);
