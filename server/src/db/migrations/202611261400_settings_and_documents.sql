-- Portal-wide settings the operator changes without a restart (docs/adr/0028-settings-and-documents.md). One row per
-- key that differs from its default; the value is JSON validated by contract/src/settings.ts before it is written.
CREATE TABLE portal_settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL
);
-- The grace period after access ends is read by the caster's access query: a change must drop the casters' cached
-- decisions like a grant change does.
CREATE TRIGGER portal_settings_changed AFTER INSERT OR UPDATE OR DELETE ON portal_settings
  FOR EACH STATEMENT EXECUTE FUNCTION ntrip_auth_epoch_bump();

-- Terms, privacy policy and data-processing agreement, each a series of published versions (Markdown). A version is
-- never edited: publishing writes the next one.
CREATE TABLE legal_documents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('terms', 'privacy', 'dpa')),
  version integer NOT NULL CHECK (version >= 1),
  title text NOT NULL,
  body text NOT NULL,
  published_at timestamptz NOT NULL DEFAULT now(),
  published_by uuid REFERENCES users (id) ON DELETE SET NULL,
  UNIQUE (kind, version)
);

-- Who accepted which version of the terms, when. Acceptances from before the first published version are the
-- users.terms_accepted_at of users whose terms_version is NULL.
CREATE TABLE terms_acceptances (
  document_id uuid NOT NULL REFERENCES legal_documents (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  accepted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (document_id, user_id)
);
CREATE INDEX terms_acceptances_user ON terms_acceptances (user_id);

-- The version terms_accepted_at belongs to; a user whose version is below the latest published terms is asked again.
ALTER TABLE users ADD COLUMN terms_version integer;
