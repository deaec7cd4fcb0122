-- Issue 32: the language a legal document version was written in, so a page in another language says so and marks
-- the text (lang) instead of passing it off as its own. Versions published before were English (the demo's are).
ALTER TABLE legal_documents ADD COLUMN language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'nl'));
