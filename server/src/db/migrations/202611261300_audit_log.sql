-- The operator's audit log (issue 20, docs/adr/0027-back-office.md): one row per admin write or settings change.
-- The actor is kept by id and e-mail without a foreign key: deleting a user must not rewrite (or be blocked by) the
-- history of what they did.
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  actor_user_id uuid,
  actor_email text,
  action text NOT NULL CHECK (action ~ '^[a-z][a-z0-9_.-]{0,79}$'),
  target_type text NOT NULL CHECK (char_length(target_type) BETWEEN 1 AND 40),
  target_id text,
  before jsonb,
  after jsonb,
  ip text
);
CREATE INDEX audit_log_at ON audit_log (at DESC, id DESC);
CREATE INDEX audit_log_actor ON audit_log (actor_user_id, at DESC);
CREATE INDEX audit_log_target ON audit_log (target_type, target_id, at DESC);
CREATE INDEX audit_log_action ON audit_log (action, at DESC);

-- Append-only in the database itself, whatever the code does: UPDATE, DELETE and TRUNCATE raise.
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END;
$$;
CREATE TRIGGER audit_log_no_update_or_delete BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
