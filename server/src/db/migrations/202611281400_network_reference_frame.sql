-- The reference frame a network's corrections (its stations' 1005/1006 positions) are in (issue 32): frame (ETRS89,
-- ITRF, ...), realisation (ETRF2000, ITRF2014, ...), epoch as a decimal year or null for the epoch of observation,
-- and the national grid it relates to (RD/NAP, ...), as contract referenceFrameSchema. Null until an admin sets it.
ALTER TABLE networks ADD COLUMN reference_frame jsonb;
