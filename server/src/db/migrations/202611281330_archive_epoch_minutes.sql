-- The minutes of each archived hour that hold an observation epoch stored in it (issue 32): RINEX availability is
-- what the stored epochs cover, not the span between the first and last one (a replay's epochs before and after
-- the hour made 6 minutes of data a "full" hour). Hours indexed before this keep what their first and last epoch
-- can vouch for: the minutes between them when both lie in the hour (an epoch of the hour before may arrive in
-- its first seconds, one after it cannot); otherwise none, so an hour the index cannot vouch for is not sold.
ALTER TABLE archive_hours ADD COLUMN epoch_minutes integer[] NOT NULL DEFAULT '{}';
UPDATE archive_hours SET epoch_minutes = ARRAY(
  SELECT generate_series(
    floor(extract(epoch FROM greatest(first_epoch, hour) - hour) / 60)::int,
    floor(extract(epoch FROM last_epoch - hour) / 60)::int))
WHERE first_epoch >= hour - interval '1 minute' AND last_epoch >= hour AND last_epoch < hour + interval '1 hour';
