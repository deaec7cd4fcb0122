-- Issue 32: the notes the server writes on token ledger entries as a code and its values, so the SPA words them in
-- the reader's language (ISO times as localised dates) instead of showing the English text written at the time.
-- Older entries keep their text only. ADD COLUMN changes no row, so the append-only trigger does not object.
ALTER TABLE token_ledger ADD COLUMN note_code text;
ALTER TABLE token_ledger ADD COLUMN note_params jsonb;
