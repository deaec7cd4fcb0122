import type { UserInfo } from '@portal/contract';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { userInfoQueryKey } from './auth-context';
import { fetchUserInfo } from './user-info.api';

/** What the AuthProvider needs of GET /api/user for one signed-in user. */
export interface UserInfoSnapshot {
  uid: string;
  data: UserInfo | undefined;
  refetch: () => Promise<unknown>;
  client: QueryClient;
}

/**
 * Runs the signed-in user's GET /api/user query and reports it to the AuthProvider, which has no React Query of
 * its own: a logged-out visitor never loads it (ADR 0030). Guards, the terms gate and the login modal observe the
 * same query by its key.
 */
export function UserInfoQuery({ uid, onChange }: { uid: string; onChange: (info: UserInfoSnapshot) => void }) {
  const client = useQueryClient();
  const userInfo = useQuery({
    queryKey: userInfoQueryKey(uid),
    queryFn: fetchUserInfo,
    retry: 1,
    staleTime: 60_000,
  });

  useEffect(() => {
    if (userInfo.isError) console.error('Failed to fetch userInfo status', userInfo.error);
  }, [userInfo.isError, userInfo.error]);

  useEffect(
    () => onChange({ uid, data: userInfo.data, refetch: userInfo.refetch, client }),
    [uid, userInfo.data, userInfo.refetch, client, onChange],
  );
  return null;
}
