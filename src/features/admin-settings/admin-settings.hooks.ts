import type { DocumentKind, PortalSettingsPatch, PublishDocumentBody } from '@portal/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchDocumentVersions, fetchPortalSettings, patchPortalSettings, publishDocument } from './admin-settings.api';

const settingsKey = ['admin-settings'] as const;

export function usePortalSettings() {
  return useQuery({ queryKey: settingsKey, queryFn: fetchPortalSettings });
}

export function useSavePortalSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: PortalSettingsPatch) => patchPortalSettings(patch),
    onSuccess: (data) => client.setQueryData(settingsKey, data),
  });
}

export function useDocumentVersions(kind: DocumentKind) {
  return useQuery({ queryKey: ['admin-documents', kind], queryFn: () => fetchDocumentVersions(kind) });
}

export function usePublishDocument(kind: DocumentKind) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: PublishDocumentBody) => publishDocument(kind, body),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: ['admin-documents', kind] }),
        client.invalidateQueries({ queryKey: ['legal-document', kind] }),
      ]),
  });
}
