import type { InviteActionBody, UpdateMemberBody } from '@portal/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sendVerificationEmail } from '../auth/auth-actions';
import { useUser } from '../auth/auth-context';
import {
  acceptInviteLink,
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

/** Joining by an invite's link changes the caller's teams, so the user data is refetched too. */
export function useAcceptInviteLink() {
  const client = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: acceptInviteLink,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: keys.myInvites });
      await user?.refetch();
    },
  });
}

/** Firebase's verification e-mail; its page leads back to the page the user asked from. */
export function useSendVerificationEmail() {
  return useMutation({ mutationFn: () => sendVerificationEmail(window.location.href) });
}

/**
 * After the user opened the verification link: the Firebase user and a new ID token say so, and only then does the
 * server list the invites addressed to the e-mail.
 */
export function useRefreshVerification() {
  const client = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: async () => {
      await user?.refetch();
      await client.invalidateQueries({ queryKey: keys.myInvites });
    },
  });
}

export function useAllOrganizations() {
  return useQuery({ queryKey: ['admin-organizations'], queryFn: fetchAllOrganizations });
}
