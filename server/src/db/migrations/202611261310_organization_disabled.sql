-- An operator can disable an organisation (issue 20, docs/adr/0027-back-office.md): its members' organisation calls
-- are refused and its all-accounts grants stop covering their accounts at the caster until it is enabled again.
ALTER TABLE organizations ADD COLUMN disabled_at timestamptz;

-- Casters re-read the epoch each second and drop cached decisions, so a disabled organisation's grants stop at once.
CREATE TRIGGER organizations_disabled_epoch AFTER UPDATE OF disabled_at ON organizations
  FOR EACH STATEMENT EXECUTE FUNCTION ntrip_auth_epoch_bump();
