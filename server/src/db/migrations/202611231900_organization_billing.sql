-- Organisation-scope billing (docs/adr/0010-organization-billing.md): a checkout session and the subscription it
-- creates may belong to an organisation. user_id stays the member who paid (the provider customer, the payment
-- history, the grants' owner); organization_id says whose subscription it is and who may manage it.
-- No cascade: an organisation with billing history is not removed by deleting rows under it.

ALTER TABLE checkout_sessions ADD COLUMN organization_id uuid REFERENCES organizations (id);
ALTER TABLE subscriptions ADD COLUMN organization_id uuid REFERENCES organizations (id);

CREATE INDEX subscriptions_organization ON subscriptions (organization_id, created_at DESC)
  WHERE organization_id IS NOT NULL;
