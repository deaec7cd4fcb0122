-- Organisations that a company can run (issue 21, docs/adr/0026-organization-management.md).

-- A revoked invite is kept, with its link, so the link can say it was revoked rather than that it never existed.
ALTER TABLE organization_invites DROP CONSTRAINT organization_invites_status_check;
ALTER TABLE organization_invites ADD CONSTRAINT organization_invites_status_check
  CHECK (status IN ('pending', 'accepted', 'declined', 'revoked'));

-- An organisation's NTRIP account: owner_user_id is the member whose rover uses it. The caster lets it in only
-- while that member is still a member, so removing someone ends their use of the organisation's accounts.
ALTER TABLE ntrip_accounts ADD COLUMN organization_id uuid REFERENCES organizations (id) ON DELETE SET NULL;
CREATE INDEX ntrip_accounts_organization ON ntrip_accounts (organization_id, created_at)
  WHERE organization_id IS NOT NULL;

-- The organisation's tokens: a balance on its row (locked by every append) and an append-only ledger. The ledger
-- names the organisation without a foreign key: its history outlives the organisation, as payments do.
ALTER TABLE organizations ADD COLUMN token_balance integer NOT NULL DEFAULT 0 CHECK (token_balance >= 0);
CREATE TABLE organization_token_ledger (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('transfer_in', 'activation_spend')),
  delta integer NOT NULL CHECK (delta <> 0),
  balance_after integer NOT NULL CHECK (balance_after >= 0),
  reference_id text,
  note text,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'transfer_in' AND delta > 0) OR (kind = 'activation_spend' AND delta < 0))
);
CREATE UNIQUE INDEX organization_token_ledger_reference ON organization_token_ledger (kind, reference_id)
  WHERE reference_id IS NOT NULL;
CREATE INDEX organization_token_ledger_org ON organization_token_ledger (organization_id, id DESC);
CREATE TRIGGER organization_token_ledger_no_update BEFORE UPDATE ON organization_token_ledger
  FOR EACH ROW EXECUTE FUNCTION token_ledger_append_only();

-- A member moves tokens from their own balance to an organisation's: the personal side of that transfer.
ALTER TABLE token_ledger DROP CONSTRAINT token_ledger_kind_check;
ALTER TABLE token_ledger DROP CONSTRAINT token_ledger_check;
ALTER TABLE token_ledger ADD CONSTRAINT token_ledger_kind_check
  CHECK (kind IN ('purchase', 'admin_grant', 'activation_spend', 'rinex_spend', 'refund', 'organization_transfer'));
ALTER TABLE token_ledger ADD CONSTRAINT token_ledger_check
  CHECK ((kind = 'purchase' AND delta > 0)
      OR (kind IN ('activation_spend', 'rinex_spend', 'organization_transfer') AND delta < 0)
      OR kind IN ('admin_grant', 'refund'));
