-- A network's name and description in languages besides the base (English) one, as {"nl": {"name", "description"}}
-- (issue 22): a Dutch reader gets the Dutch texts where the operator wrote them.
ALTER TABLE networks ADD COLUMN translations jsonb NOT NULL DEFAULT '{}';
