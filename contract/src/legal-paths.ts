/**
 * The kinds of versioned legal documents and the public page of each (docs/adr/0028). A module without zod: the
 * terms dialog, on the first page load, links to the terms page.
 */
export const DOCUMENT_KINDS = ['terms', 'privacy', 'dpa'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** Public addresses of the current versions, e.g. /legal/terms. */
export const legalDocumentPath = (kind: DocumentKind) => `/legal/${kind}`;
