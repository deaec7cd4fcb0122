import type { AdminDocumentVersion, DocumentKind, DocumentVersion, PublishDocumentBody } from '@portal/contract';
import { notFound } from '../../shared/errors.ts';
import { iso } from '../../shared/iso.ts';
import { type AuditWho, recordAudit } from '../audit/index.ts';
import type { DocumentsRepo } from './documents.repo.ts';

type VersionRow = NonNullable<Awaited<ReturnType<DocumentsRepo['current']>>>;

const present = (row: VersionRow): DocumentVersion => ({
  id: row.id,
  kind: row.kind,
  version: row.version,
  title: row.title,
  body: row.body,
  language: row.language,
  publishedAt: iso(row.published_at),
});

export type DocumentsService = ReturnType<typeof createDocumentsService>;

export function createDocumentsService({ repo }: { repo: DocumentsRepo }) {
  return {
    async current(kind: DocumentKind): Promise<DocumentVersion> {
      const row = await repo.current(kind);
      if (!row) throw notFound('Document');
      return present(row);
    },

    async versions(kind: DocumentKind): Promise<AdminDocumentVersion[]> {
      return (await repo.versions(kind)).map((row) => ({
        ...present(row),
        publishedBy: row.published_by,
        acceptances: Number(row.acceptances ?? 0),
      }));
    },

    /**
     * A new version, never an edit of one. For the terms it is also what every user has to accept next: GET /api/user
     * compares each user's accepted version with the latest (docs/adr/0028).
     */
    async publish(
      who: AuditWho & { actor: { userId: string } },
      kind: DocumentKind,
      body: PublishDocumentBody,
    ): Promise<DocumentVersion> {
      const row = await repo.transaction(async (trx) => {
        await repo.lock(kind, trx);
        const previous = await repo.current(kind, trx);
        const published = await repo.publish(
          kind,
          { title: body.title, body: body.body, language: body.language ?? 'en' },
          who.actor.userId,
          trx,
        );
        await recordAudit(trx, {
          ...who,
          action: 'document.publish',
          target: { type: 'legal_document', id: published.id },
          before: previous ? { kind, version: previous.version, title: previous.title, body: previous.body } : null,
          after: { kind, version: published.version, title: published.title, body: published.body },
        });
        return published;
      });
      return present(row);
    },
  };
}
