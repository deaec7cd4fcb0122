import type { DocumentKind } from '@portal/contract';
import { sql } from 'kysely';
import type { Database } from '../../db/client.ts';
import type {} from '../settings/index.ts';

const versionColumns = ['d.id', 'd.kind', 'd.version', 'd.title', 'd.body', 'd.language', 'd.published_at'] as const;

export type DocumentsRepo = ReturnType<typeof createDocumentsRepo>;

export function createDocumentsRepo(db: Database) {
  return {
    transaction: <T>(fn: (trx: Database) => Promise<T>) => db.transaction().execute(fn),

    async current(kind: DocumentKind, trx: Database = db) {
      return trx
        .selectFrom('legal_documents as d')
        .select(versionColumns)
        .where('d.kind', '=', kind)
        .orderBy('d.version', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    async versions(kind: DocumentKind) {
      return db
        .selectFrom('legal_documents as d')
        .leftJoin('users as u', 'u.id', 'd.published_by')
        .select([
          ...versionColumns,
          'u.email as published_by',
          (eb) =>
            eb
              .selectFrom('terms_acceptances as a')
              .select((e) => e.fn.countAll<number>().as('n'))
              .whereRef('a.document_id', '=', 'd.id')
              .as('acceptances'),
        ])
        .where('d.kind', '=', kind)
        .orderBy('d.version', 'desc')
        .execute();
    },

    /** Publications of one kind in turn: two at once number 2 and 3, and each sees the other as its before. */
    async lock(kind: DocumentKind, trx: Database) {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`legal_documents:${kind}`}))`.execute(trx);
    },

    /** The next version of the kind; call with the kind's lock held. */
    async publish(
      kind: DocumentKind,
      { title, body, language }: { title: string; body: string; language: 'en' | 'nl' },
      userId: string,
      trx: Database,
    ) {
      return trx
        .insertInto('legal_documents')
        .values({
          kind,
          title,
          body,
          language,
          published_by: userId,
          version: sql<number>`coalesce((SELECT max(version) FROM legal_documents WHERE kind = ${kind}), 0) + 1`,
        })
        .returning(['id', 'kind', 'version', 'title', 'body', 'language', 'published_at'])
        .executeTakeFirstOrThrow();
    },
  };
}
