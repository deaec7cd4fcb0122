import { z } from 'zod';
import { DOCUMENT_KINDS } from './legal-paths.ts';

export { DOCUMENT_KINDS, type DocumentKind, legalDocumentPath } from './legal-paths.ts';

/**
 * Versioned legal documents (docs/adr/0028): the operator publishes a new version at /admin/settings/documents and
 * the public pages show the latest. Publishing terms makes every user accept the new version before the app.
 */
export const documentKindSchema = z.enum(DOCUMENT_KINDS);

export const DOCUMENT_TITLE_MAX = 120;
/** Markdown source; generous for a contract, small enough that one publication cannot fill the database. */
export const DOCUMENT_BODY_MAX = 200_000;

export const documentKindParamsSchema = z.object({ kind: documentKindSchema });

/** The languages a document can be written in (the portal's); a page in another language says which it is. */
export const DOCUMENT_LANGUAGES = ['en', 'nl'] as const;
export const documentLanguageSchema = z.enum(DOCUMENT_LANGUAGES);
export type DocumentLanguage = z.infer<typeof documentLanguageSchema>;

export const publishDocumentBodySchema = z.strictObject({
  title: z.string().trim().min(1).max(DOCUMENT_TITLE_MAX),
  body: z.string().trim().min(1).max(DOCUMENT_BODY_MAX),
  /** The text's language; English when left out. */
  language: documentLanguageSchema.optional(),
});
export type PublishDocumentBody = z.infer<typeof publishDocumentBodySchema>;

export const documentVersionSchema = z.object({
  id: z.string(),
  kind: documentKindSchema,
  version: z.number().int(),
  title: z.string(),
  body: z.string(),
  language: documentLanguageSchema,
  publishedAt: z.string(),
});
export type DocumentVersion = z.infer<typeof documentVersionSchema>;

/** `GET /admin/documents/{kind}`: every version, newest first, with how many users accepted each (terms only). */
export const adminDocumentVersionSchema = documentVersionSchema.extend({
  publishedBy: z.string().nullable(),
  acceptances: z.number().int(),
});
export type AdminDocumentVersion = z.infer<typeof adminDocumentVersionSchema>;
export const adminDocumentVersionsSchema = z.object({ items: z.array(adminDocumentVersionSchema) });
export type AdminDocumentVersions = z.infer<typeof adminDocumentVersionsSchema>;
