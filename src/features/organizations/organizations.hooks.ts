import type { InviteActionBody, UpdateMemberBody } from '@portal/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useUser } from '../auth/auth-context';
import {
  answerInvite,
  fetchAllOrganizations,
  fetchMembers,
  fetchMyInvites,
  fetchOrganization,
  fetchOrgInvites,
  revokeInvite,
  sendInvite,
  updateMember,
} from './organizations.api';

const keys = {
  org: (orgId: string) => ['org', orgId] as const,
  members: (orgId: string) => ['org', orgId, 'members'] as const,
  invites: (orgId: string) => ['org', orgId, 'invites'] as const,
  myInvites: ['my-invites'] as const,
};

export function useOrganization(orgId: string | undefined) {
  return useQuery({ queryKey: keys.org(orgId ?? ''), queryFn: () => fetchOrganization(orgId ?? ''), enabled: !!orgId });
}

export function useMembers(orgId: string | undefined) {
  return useQuery({ queryKey: keys.members(orgId ?? ''), queryFn: () => fetchMembers(orgId ?? ''), enabled: !!orgId });
}

export function useOrgInvites(orgId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: keys.invites(orgId ?? ''),
    queryFn: () => fetchOrgInvites(orgId ?? ''),
    enabled: !!orgId && enabled,
  });
}

export function useMyInvites() {
  const user = useUser();
  return useQuery({ queryKey: keys.myInvites, queryFn: fetchMyInvites, enabled: !!user });
}

export function useUpdateMember(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateMemberBody) => updateMember(orgId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.members(orgId) }),
  });
}

export function useSendInvite(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => sendInvite(orgId, email),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.invites(orgId) }),
  });
}

export function useRevokeInvite(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => revokeInvite(orgId, email),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.invites(orgId) }),
  });
}

/** Answering an invite can change the caller's teams, so the user data is refetched too. */
export function useAnswerInvite() {
  const client = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: (body: InviteActionBody) => answerInvite(body),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: keys.myInvites });
      await user?.refetch();
    },
  });
}

export function useAllOrganizations() {
  return useQuery({ queryKey: ['admin-organizations'], queryFn: fetchAllOrganizations });
}
