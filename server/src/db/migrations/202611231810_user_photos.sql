-- Profile photos uploaded through the account settings: small images kept in the database, so PGlite and
-- PostgreSQL deployments need no file storage. Served publicly by id (GET /api/users/{id}/photo).
CREATE TABLE user_photos (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/webp', 'image/gif')),
  bytes bytea NOT NULL CHECK (octet_length(bytes) BETWEEN 1 AND 524288),
  sha256 text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
