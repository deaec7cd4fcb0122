import type { AdminUserPatch } from '@portal/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchAdminUsers, patchAdminUser } from './users.api';

export function useAdminUsers(query: { search?: string; limit: number; offset: number }) {
  return useQuery({
    queryKey: ['admin-users', query],
    queryFn: () => fetchAdminUsers(query),
    placeholderData: keepPreviousData,
  });
}

export function usePatchAdminUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, patch }: { userId: string; patch: AdminUserPatch }) => patchAdminUser(userId, patch),
    onSuccess: () => client.invalidateQueries({ queryKey: ['admin-users'] }),
  });
}
