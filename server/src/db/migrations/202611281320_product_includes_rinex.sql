-- Whether a subscription plan gives its subscribers RINEX without tokens (issue 32): an attribute the admin sets,
-- no longer read from the plan's marketing text. Existing plans keep what they were sold with: those whose texts
-- named RINEX under the old rule get the attribute, which the admin can now take away.
ALTER TABLE products ADD COLUMN includes_rinex boolean NOT NULL DEFAULT false;
UPDATE products SET includes_rinex = true
WHERE kind = 'subscription'
  AND EXISTS (SELECT 1 FROM unnest(attributes) AS a WHERE a ~* '(^|[^A-Za-z0-9])RINEX([^A-Za-z0-9]|$)');
