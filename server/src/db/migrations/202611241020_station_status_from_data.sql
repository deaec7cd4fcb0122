-- Station status follows the data (issue 17): only a caster that receives valid frames reports a station online.
-- A status no caster ever reported (status_reported_at NULL: the old demo seed wrote 'online' for stations nothing
-- feeds) is not evidence of data, so it becomes offline; the next frame from a base station turns it online.
UPDATE stations SET status = 'offline' WHERE status = 'online' AND status_reported_at IS NULL;
