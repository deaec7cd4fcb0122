-- Issue 36: what an NTRIP account's rovers get (ADR 0088). 'as-sent' relays the station's frames byte for byte;
-- constellations NULL means every constellation the station sends.
ALTER TABLE ntrip_accounts ADD COLUMN rtcm_profile text NOT NULL DEFAULT 'as-sent'
  CHECK (rtcm_profile IN ('as-sent', 'msm4', 'legacy'));
ALTER TABLE ntrip_accounts ADD COLUMN constellations text[]
  CHECK (constellations IS NULL OR (cardinality(constellations) > 0
    AND constellations <@ ARRAY['GPS', 'GLO', 'GAL', 'BDS', 'QZS', 'IRN', 'SBAS']::text[]));
-- The profile a session was served with (the account's, or the mountpoint suffix's); NULL before issue 36.
ALTER TABLE ntrip_sessions ADD COLUMN rtcm_profile text;
