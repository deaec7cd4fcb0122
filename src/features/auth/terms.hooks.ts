import type { UserInfo } from '@portal/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { userInfoQueryKey, useUser } from './auth-context';
import { acceptTerms } from './terms.api';
import { fetchUserInfo } from './user-info.api';

/** When the logged-in user accepted the terms: undefined until GET /api/user answers (or when it failed). */
export function useTermsAcceptedAt(): string | null | undefined {
  const uid = useUser()?.uid ?? '';
  // Observes the query the AuthProvider runs; never fetches by itself.
  const info = useQuery({ queryKey: userInfoQueryKey(uid), queryFn: fetchUserInfo, enabled: false });
  return uid ? info.data?.termsAcceptedAt : undefined;
}

/** The latest published terms version the user is asked to accept; null or undefined when none was published. */
export function useTermsVersion(): number | null | undefined {
  const uid = useUser()?.uid ?? '';
  const info = useQuery({ queryKey: userInfoQueryKey(uid), queryFn: fetchUserInfo, enabled: false });
  return uid ? info.data?.termsVersion : undefined;
}

/** POST /api/user/terms, then the cached user info says so (no second GET /api/user). */
export function useAcceptTerms() {
  const queryClient = useQueryClient();
  const uid = useUser()?.uid;
  return useMutation({
    mutationFn: acceptTerms,
    onSuccess: ({ termsAcceptedAt }) => {
      if (!uid) return;
      queryClient.setQueryData<UserInfo>(userInfoQueryKey(uid), (info) => info && { ...info, termsAcceptedAt });
    },
  });
}
