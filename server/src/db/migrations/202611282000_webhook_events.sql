-- Issue 37, docs/adr/0089-webhook-events.md: an organisation's webhook endpoints (made by its owners and admins;
-- `user_id` is who made it), and who hears of a station's or a network's outage.
ALTER TABLE webhook_endpoints ADD COLUMN organization_id uuid REFERENCES organizations (id) ON DELETE CASCADE;
CREATE INDEX webhook_endpoints_organization_idx ON webhook_endpoints (organization_id) WHERE organization_id IS NOT NULL;

-- The owners ({"userId"} or {"organizationId"}) told "station.down": "station.up" goes to them and no one else.
ALTER TABLE station_alerts ADD COLUMN event_owners jsonb NOT NULL DEFAULT '[]';

-- One row per network outage (every station of the network in an alerted incident), claimed in the transaction that
-- records its "network.down" events, so two API processes report it once.
CREATE TABLE network_alerts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  network_id uuid NOT NULL REFERENCES networks (id) ON DELETE CASCADE,
  started_at timestamptz NOT NULL,
  event_owners jsonb NOT NULL DEFAULT '[]',
  ended_at timestamptz
);
-- At most one open outage per network: the claim.
CREATE UNIQUE INDEX network_alerts_open ON network_alerts (network_id) WHERE ended_at IS NULL;
