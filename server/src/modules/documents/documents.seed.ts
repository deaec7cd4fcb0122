import { DOCUMENT_KINDS } from '@portal/contract';
import type { Database } from '../../db/client.ts';
import { DEMO_DOCUMENTS } from './demo-documents.ts';

/**
 * Publishes the demo operator's terms, privacy policy and data processing agreement as version 1 of each kind that
 * has no version yet, so a demo database seeded before them gets them and an admin's own versions are kept.
 */
export async function seedDemoDocuments(db: Database): Promise<void> {
  for (const kind of DOCUMENT_KINDS) {
    const { title, body } = DEMO_DOCUMENTS[kind];
    await db
      .insertInto('legal_documents')
      .values({ kind, version: 1, title, body, published_by: null })
      .onConflict((oc) => oc.columns(['kind', 'version']).doNothing())
      .execute();
  }
}
