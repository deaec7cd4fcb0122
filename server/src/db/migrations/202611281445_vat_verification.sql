-- Reverse charge only for a VAT number that was verified (issue 32, docs/adr/0061): the number that was verified,
-- when, and by whom (a registry, or an admin who checked it by hand). A changed number is no longer verified because
-- it differs from vat_verified_number.
ALTER TABLE billing_details ADD COLUMN vat_verified_number text;
ALTER TABLE billing_details ADD COLUMN vat_verified_at timestamptz;
ALTER TABLE billing_details ADD COLUMN vat_verified_source text CHECK (vat_verified_source IN ('registry', 'admin'));
ALTER TABLE billing_details ADD COLUMN vat_verified_by uuid REFERENCES users (id) ON DELETE SET NULL;
