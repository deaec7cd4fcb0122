-- A base station's owner (issue 33, docs/adr/0081-base-owners.md): the user who runs the
-- base behind a feed and gets the outage alerts of its station. Optional; an owner who leaves leaves no owner.
ALTER TABLE feeds ADD COLUMN owner_user_id uuid REFERENCES users (id) ON DELETE SET NULL;
CREATE INDEX feeds_owner ON feeds (owner_user_id) WHERE owner_user_id IS NOT NULL;
