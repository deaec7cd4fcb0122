-- Issue 38: whether the last attempt of an entry came over a TLS port (ADR 0076). Entries from before were plain.
ALTER TABLE ntrip_refusals ADD COLUMN tls boolean NOT NULL DEFAULT false;
ALTER TABLE ntrip_login_failures ADD COLUMN tls boolean NOT NULL DEFAULT false;
