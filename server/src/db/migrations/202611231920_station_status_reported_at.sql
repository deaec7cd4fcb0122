-- When a caster last wrote a station's status. A caster rewrites it every 10 s while it feeds the station, so an
-- 'online' reported long ago is what a crashed caster left behind. NULL: no caster wrote it (the demo seed), and
-- no caster will expire it (docs/adr/0011-station-status-after-a-crash.md).
ALTER TABLE stations ADD COLUMN status_reported_at timestamptz;
CREATE INDEX stations_online_reported ON stations (status_reported_at) WHERE status = 'online';
