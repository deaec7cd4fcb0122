import {
  type AdminDocumentVersions,
  type AdminPortalSettings,
  adminDocumentVersionsSchema,
  adminPortalSettingsSchema,
  type DocumentKind,
  type DocumentVersion,
  documentVersionSchema,
  type PortalSettingsPatch,
  type PublishDocumentBody,
} from '@portal/contract';
import { api } from '../../lib/api';

export async function fetchPortalSettings(): Promise<AdminPortalSettings> {
  return adminPortalSettingsSchema.parse((await api.get('/admin/settings')).data);
}

export async function patchPortalSettings(patch: PortalSettingsPatch): Promise<AdminPortalSettings> {
  return adminPortalSettingsSchema.parse((await api.patch('/admin/settings', patch)).data);
}

export async function fetchDocumentVersions(kind: DocumentKind): Promise<AdminDocumentVersions> {
  return adminDocumentVersionsSchema.parse((await api.get(`/admin/documents/${kind}`)).data);
}

export async function publishDocument(kind: DocumentKind, body: PublishDocumentBody): Promise<DocumentVersion> {
  return documentVersionSchema.parse((await api.post(`/admin/documents/${kind}`, body)).data);
}
