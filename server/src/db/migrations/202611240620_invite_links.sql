-- An invite addressed to an e-mail proves nothing about who later signs up with that address: anyone may register it
-- before its owner does. An invite is therefore accepted either by a user whose verified e-mail matches or by the
-- holder of its secret link. Only the SHA-256 of the link's token is kept, so a copy of the database opens nothing;
-- it is cleared once used. Invites sent before this have no link and are accepted by verified e-mail only
-- (docs/adr/0007-organizations.md).
ALTER TABLE organization_invites ADD COLUMN token_hash text;
CREATE UNIQUE INDEX organization_invites_token_hash ON organization_invites (token_hash);
-- Who accepted: with a link that may be a user with another e-mail than the one invited.
ALTER TABLE organization_invites ADD COLUMN accepted_by uuid REFERENCES users (id) ON DELETE SET NULL;
