import { type DocumentKind, legalDocumentPath } from '@portal/contract/legal-paths';
import { brand } from '../../lib/brand';

/** The terms a user is shown: the brand's own page when it has one, else the portal's published terms. */
export const termsHref = brand.termsLink || legalDocumentPath('terms');

/** Where each legal document is read; only the terms may be the brand's own address. */
export const legalHref = (kind: DocumentKind) => (kind === 'terms' ? termsHref : legalDocumentPath(kind));
