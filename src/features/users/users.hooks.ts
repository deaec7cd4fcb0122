import type { AdminUserPatch } from '@portal/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createNtripAccountFor,
  deleteNtripAccount,
  fetchAdminUsers,
  fetchCustomer,
  patchAdminUser,
  resetNtripPassword,
  setVatVerified,
} from './users.api';

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

export const customerKey = (userId: string) => ['admin-users', 'customer', userId] as const;

export function useCustomer(userId: string) {
  return useQuery({ queryKey: customerKey(userId), queryFn: () => fetchCustomer(userId) });
}

/**
 * Every write on the customer page (or on an account of the organisation page) refreshes the pages' data and the
 * lists when it is done.
 */
function useCustomerMutation<A, R>(fn: (arg: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () =>
      Promise.all(
        [['admin-users'], ['admin-ntrip-accounts'], ['admin-organizations']].map((queryKey) =>
          client.invalidateQueries({ queryKey }),
        ),
      ),
  });
}

export const useCreateNtripAccountFor = () => useCustomerMutation(createNtripAccountFor);
export const useResetNtripPassword = () => useCustomerMutation(resetNtripPassword);
export const useDeleteNtripAccount = () => useCustomerMutation(deleteNtripAccount);
export const useSetVatVerified = () => useCustomerMutation(setVatVerified);
