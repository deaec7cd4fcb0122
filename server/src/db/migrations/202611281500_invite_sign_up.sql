-- An invite link admits one newcomer when sign-up is by invitation only (issue 31): the user it admitted, set in the
-- transaction that creates them, so a second sign-up with the same link is refused even before anyone accepts it.
ALTER TABLE organization_invites ADD COLUMN signed_up_user_id uuid REFERENCES users(id) ON DELETE SET NULL;
