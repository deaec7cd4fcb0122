import {
  type AdminOrganizationDetail,
  type AdminOrganizationPatch,
  type AdminOrganizationSummary,
  adminOrganizationDetailSchema,
  adminOrganizationSummarySchema,
} from '@portal/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

const detailKey = (orgId: string) => ['admin-organizations', orgId] as const;

export async function fetchAdminOrganization(orgId: string): Promise<AdminOrganizationDetail> {
  return adminOrganizationDetailSchema.parse((await api.get(`/admin/organizations/${orgId}`)).data);
}

export async function patchAdminOrganization(
  orgId: string,
  patch: AdminOrganizationPatch,
): Promise<AdminOrganizationSummary> {
  return adminOrganizationSummarySchema.parse((await api.patch(`/admin/organizations/${orgId}`, patch)).data);
}

export function useAdminOrganization(orgId: string) {
  return useQuery({ queryKey: detailKey(orgId), queryFn: () => fetchAdminOrganization(orgId) });
}

export function usePatchAdminOrganization(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: AdminOrganizationPatch) => patchAdminOrganization(orgId, patch),
    onSuccess: () => client.invalidateQueries({ queryKey: detailKey(orgId) }),
  });
}
