-- What an ended rover session keeps of its live view (issue 17): the client's name, the station that served it
-- (for a nearest-station mountpoint, the one chosen last), its distance from the rover's last GGA position, and the
-- shares of the time the rover reported RTK fixed and float. NULL for sessions logged before, or without GGA.
ALTER TABLE ntrip_sessions
  ADD COLUMN user_agent text,
  ADD COLUMN served_station text,
  ADD COLUMN distance_km double precision CHECK (distance_km >= 0),
  ADD COLUMN fixed_share real CHECK (fixed_share BETWEEN 0 AND 1),
  ADD COLUMN float_share real CHECK (float_share BETWEEN 0 AND 1);
