import type { ColumnType, Generated } from 'kysely';

/** Row types of migration 202611261400_settings_and_documents.sql, merged into the shared DB beside their module. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface PortalSettingsTable {
  key: string;
  value: ColumnType<unknown, string, string>;
  updated_at: Timestamp;
  updated_by: string | null;
}

export interface LegalDocumentsTable {
  id: Generated<string>;
  kind: 'terms' | 'privacy' | 'dpa';
  version: number;
  title: string;
  body: string;
  /** Migration 202611281650: the language the text is written in. */
  language: Generated<'en' | 'nl'>;
  published_at: Timestamp;
  published_by: string | null;
}

export interface TermsAcceptancesTable {
  document_id: string;
  user_id: string;
  accepted_at: Timestamp;
}

declare module '../../db/schema.ts' {
  interface DB {
    portal_settings: PortalSettingsTable;
    legal_documents: LegalDocumentsTable;
    terms_acceptances: TermsAcceptancesTable;
  }
}
