-- Sales-demo requests of the white-label offer (spec §3), owned by the demo module.
CREATE TABLE demo_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  first_name text NOT NULL CHECK (btrim(first_name) <> ''),
  last_name text NOT NULL CHECK (btrim(last_name) <> ''),
  email text NOT NULL CHECK (btrim(email) <> ''),
  -- The e-mail of the logged-in caller as the API saw it, empty for an anonymous request.
  logged_in_email text NOT NULL DEFAULT '',
  user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  company text NOT NULL DEFAULT '',
  phone_number text NOT NULL DEFAULT '',
  submitted_from text NOT NULL DEFAULT '',
  message text NOT NULL DEFAULT '' CHECK (char_length(message) <= 200),
  gclid text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX demo_requests_newest ON demo_requests (created_at DESC, id DESC);
