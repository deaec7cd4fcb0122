-- When the user accepted the terms (POST /api/user/terms). NULL: never accepted, so the SPA asks before the app,
-- as for a Google user whose account the log-in view created. Users already here signed up through the form that
-- required the terms box, so they count as having accepted when they signed up
-- (docs/adr/0012-terms-acceptance.md).
ALTER TABLE users ADD COLUMN terms_accepted_at timestamptz;
UPDATE users SET terms_accepted_at = created_at;
