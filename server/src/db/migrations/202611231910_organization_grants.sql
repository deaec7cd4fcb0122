-- Organisation subscriptions give network access to every member's NTRIP accounts (docs/adr/0010): an all-accounts
-- grant (account_id NULL) with organization_id covers the accounts of whoever is a member when the caster asks;
-- owner_user_id stays the member who bought it, and such a grant no longer covers that member's accounts alone.
ALTER TABLE access_grants ADD COLUMN organization_id uuid REFERENCES organizations (id) ON DELETE SET NULL;
CREATE INDEX access_grants_organization ON access_grants (organization_id, network_id)
  WHERE ended_at IS NULL AND organization_id IS NOT NULL;

-- Joining or leaving an organisation changes what its members' accounts may use: casters drop cached decisions.
CREATE TRIGGER organization_members_changed AFTER INSERT OR UPDATE OR DELETE ON organization_members
  FOR EACH STATEMENT EXECUTE FUNCTION ntrip_auth_epoch_bump();

-- An organisation is deleted when its last member deletes their account (docs/adr/0009). Its billing history is
-- kept for accounting, as a deleted user's is: what it bought stays with the member who paid, as theirs.
ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_organization_id_fkey,
  ADD CONSTRAINT subscriptions_organization_id_fkey
    FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE SET NULL;
ALTER TABLE checkout_sessions DROP CONSTRAINT checkout_sessions_organization_id_fkey,
  ADD CONSTRAINT checkout_sessions_organization_id_fkey
    FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE SET NULL;
