import { type DocumentKind, type DocumentVersion, documentVersionSchema } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { api, apiError } from '../../lib/api';

/** The current version, or null when none was published yet (404). */
export async function fetchLegalDocument(kind: DocumentKind): Promise<DocumentVersion | null> {
  try {
    return documentVersionSchema.parse((await api.get(`/documents/${kind}`)).data);
  } catch (error) {
    if (apiError(error)?.status === 404) return null;
    throw error;
  }
}

export function useLegalDocument(kind: DocumentKind) {
  return useQuery({ queryKey: ['legal-document', kind], queryFn: () => fetchLegalDocument(kind) });
}
