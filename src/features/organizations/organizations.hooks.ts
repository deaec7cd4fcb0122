import type { InviteActionBody, UpdateMemberBody } from '@portal/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { setActiveOrganization } from '../auth/active-organization';
import { sendVerificationEmail } from '../auth/auth-actions';
import { useUser } from '../auth/auth-context';
import { invalidateTokenBalances } from '../billing/billing.keys';
import {
  acceptInviteLink,
  answerInvite,
  declineInviteLink,
  deleteOrganization,
  fetchAllOrganizations,
  fetchMembers,
  fetchMyInvites,
  fetchOrganization,
  fetchOrgInvites,
  leaveOrganization,
  previewInviteLink,
  removeMember,
  renameOrganization,
  revokeInvite,
  sendInvite,
  transferOwnership,
  transferTokens,
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
    onSuccess: () => client.invalidateQueries({ queryKey: keys.org(orgId) }),
  });
}

/**
 * A change to the organisation that may change what the caller sees of it: its data, members and invites are
 * fetched again, and the user's teams too (a name, a role, or the organisation itself may have changed).
 */
function useOrganizationChange<A>(orgId: string, fn: (arg: A) => Promise<unknown>, after?: () => void) {
  const client = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      after?.();
      await client.invalidateQueries({ queryKey: keys.org(orgId) });
      await invalidateTokenBalances(client);
      await user?.refetch();
    },
  });
}

export const useRemoveMember = (orgId: string) =>
  useOrganizationChange(orgId, (userId: string) => removeMember(orgId, userId));
export const useTransferOwnership = (orgId: string) =>
  useOrganizationChange(orgId, (userId: string) => transferOwnership(orgId, userId));
export const useRenameOrganization = (orgId: string) =>
  useOrganizationChange(orgId, (name: string) => renameOrganization(orgId, name));
export const useTransferTokens = (orgId: string) =>
  useOrganizationChange(orgId, (amount: number) => transferTokens(orgId, amount));
/** Leaving or deleting ends the caller's use of the organisation: the switcher goes back to Personal. */
export const useLeaveOrganization = (orgId: string) =>
  useOrganizationChange(
    orgId,
    () => leaveOrganization(orgId),
    () => setActiveOrganization(null),
  );
export const useDeleteOrganization = (orgId: string) =>
  useOrganizationChange(
    orgId,
    (name: string) => deleteOrganization(orgId, name),
    () => setActiveOrganization(null),
  );

export function useDeclineInviteLink() {
  return useMutation({ mutationFn: declineInviteLink });
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
/** The organisation and inviter an invite link names; a refused link answers its reason once (no retries). */
export function useInvitePreview(token: string | undefined) {
  return useQuery({
    queryKey: ['invite-preview', token] as const,
    queryFn: () => previewInviteLink(token ?? ''),
    enabled: !!token,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

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
