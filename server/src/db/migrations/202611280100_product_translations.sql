-- A product's customer-visible texts (name, description, the card's attributes) in languages besides the base
-- (English) one, as {"nl": {"name", "description", "attributes"}} (issue 22): a Dutch reader's pricing cards,
-- checkout and subscriptions show the Dutch texts where the operator wrote them.
ALTER TABLE products ADD COLUMN translations jsonb NOT NULL DEFAULT '{}';
