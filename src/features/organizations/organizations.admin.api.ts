import {
  type AdminOrganizationDetail,
  type AdminOrganizationPatch,
  adminOrganizationDetailSchema,
} from '@portal/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

const detailKey = (orgId: string) => ['admin-organizations', orgId] as const;

export async function fetchAdminOrganization(orgId: string): Promise<AdminOrganizationDetail> {
  return adminOrganizationDetailSchema.parse((await api.get(`/admin/organizations/${orgId}`)).data);
}

export function useAdminOrganization(orgId: string) {
  return useQuery({ queryKey: detailKey(orgId), queryFn: () => fetchAdminOrganization(orgId) });
}

export function usePatchAdminOrganization(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (patch: AdminOrganizationPatch) => (await api.patch(`/admin/organizations/${orgId}`, patch)).data,
    onSuccess: () => client.invalidateQueries({ queryKey: detailKey(orgId) }),
  });
}
