-- Machine access (issue 37, docs/adr/0078-api-keys-and-idempotency.md). A key is shown once; only the SHA-256 of it is
-- kept: it is 256 random bits, so a slow password hash would cost every request and protect nothing more. `prefix`
-- is the key's first characters, unique, to find the row and to tell keys apart in lists.
CREATE TABLE api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- An organisation's key acts only on that organisation's calls; null for a person's own key.
  organization_id uuid REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL,
  prefix text NOT NULL UNIQUE,
  key_hash text NOT NULL,
  scopes jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz,
  last_used_ip text
);
CREATE INDEX api_keys_user_idx ON api_keys (user_id) WHERE organization_id IS NULL;
CREATE INDEX api_keys_organization_idx ON api_keys (organization_id) WHERE organization_id IS NOT NULL;

-- Idempotency-Key: the first request with a key reserves its row (the primary key is the lock); the answer is kept
-- for repeats for 24 hours.
CREATE TABLE idempotency_keys (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  key text NOT NULL,
  request_hash text NOT NULL,
  status_code integer,
  response_body text,
  response_type text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
