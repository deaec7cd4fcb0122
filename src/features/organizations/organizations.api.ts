import {
  type AcceptInviteLinkResponse,
  type AdminOrganization,
  acceptInviteLinkResponseSchema,
  adminOrganizationSchema,
  type CreateOrganizationBody,
  createOrganizationResponseSchema,
  type InviteActionBody,
  type InviteLinkPreview,
  inviteCreatedResponseSchema,
  inviteLinkPreviewSchema,
  type Member,
  type MyInvite,
  memberSchema,
  myInviteSchema,
  type Organization,
  type OrganizationErrorCode,
  type OrgInvite,
  organizationChangedSchema,
  organizationErrorCodes,
  organizationSchema,
  organizationTokensSchema,
  orgInviteSchema,
  type UpdateMemberBody,
} from '@portal/contract';
import { z } from 'zod';
import { api, apiError } from '../../lib/api';

/** Why a creation failed: one of the spec's four codes, the server's reason text, or nothing the server explained. */
export type CreateOrganizationFailure =
  | { kind: 'code'; code: OrganizationErrorCode }
  | { kind: 'reason'; reason: string }
  | { kind: 'unknown' };

export function creationFailure(error: unknown): CreateOrganizationFailure {
  const e = apiError(error);
  if (e?.status !== 400) return { kind: 'unknown' };
  const code = organizationErrorCodes.find((known) => known === e.code);
  if (code) return { kind: 'code', code };
  const reason = (error as { response?: { data?: { reason?: unknown } } }).response?.data?.reason;
  return typeof reason === 'string' ? { kind: 'reason', reason } : { kind: 'reason', reason: e.message };
}

export async function createOrganization(body: CreateOrganizationBody): Promise<string> {
  const { data } = await api.post('/organization', body);
  return createOrganizationResponseSchema.parse(data).value;
}

export async function fetchOrganization(orgId: string): Promise<Organization> {
  return organizationSchema.parse((await api.get(`/org/${orgId}`)).data);
}

export async function fetchMembers(orgId: string): Promise<Member[]> {
  return z.array(memberSchema).parse((await api.get(`/org/${orgId}/members`)).data);
}

export async function updateMember(orgId: string, body: UpdateMemberBody): Promise<void> {
  organizationChangedSchema.parse((await api.put(`/org/${orgId}/members`, body)).data);
}

export async function removeMember(orgId: string, forMember: string): Promise<void> {
  organizationChangedSchema.parse((await api.delete(`/org/${orgId}/members`, { data: { forMember } })).data);
}

export async function leaveOrganization(orgId: string): Promise<void> {
  organizationChangedSchema.parse((await api.post(`/org/${orgId}/leave`)).data);
}

export async function transferOwnership(orgId: string, forMember: string): Promise<void> {
  organizationChangedSchema.parse((await api.post(`/org/${orgId}/transfer`, { forMember })).data);
}

export async function renameOrganization(orgId: string, name: string): Promise<void> {
  organizationChangedSchema.parse((await api.patch(`/org/${orgId}`, { name })).data);
}

/** `name` is the organisation's name typed again. */
export async function deleteOrganization(orgId: string, name: string): Promise<void> {
  organizationChangedSchema.parse((await api.delete(`/org/${orgId}`, { data: { name } })).data);
}

/** Moves tokens from the caller's balance to the organisation's; answers the organisation's new balance. */
export async function transferTokens(orgId: string, tokenAmount: number): Promise<number> {
  return organizationTokensSchema.parse((await api.post(`/org/${orgId}/tokens`, { tokenAmount })).data).tokenAmount;
}

export async function declineInviteLink(token: string): Promise<void> {
  organizationChangedSchema.parse((await api.post('/invites/decline', { token })).data);
}

export async function fetchOrgInvites(orgId: string): Promise<OrgInvite[]> {
  return z.array(orgInviteSchema).parse((await api.get(`/org/${orgId}/invites`)).data);
}

/** Answers the invite's secret link, which the server shows only this once, and whether the portal mailed it. */
export async function sendInvite(orgId: string, email: string): Promise<{ link: string; mailed: boolean }> {
  const { data } = await api.post(`/org/${orgId}/invites`, { email });
  const { link, mailed } = inviteCreatedResponseSchema.parse(data);
  return { link, mailed };
}

export async function revokeInvite(orgId: string, email: string): Promise<void> {
  organizationChangedSchema.parse((await api.delete(`/org/${orgId}/invites`, { data: { email } })).data);
}

export async function fetchMyInvites(): Promise<MyInvite[]> {
  return z.array(myInviteSchema).parse((await api.get('/invites')).data);
}

export async function answerInvite(body: InviteActionBody): Promise<void> {
  organizationChangedSchema.parse((await api.put('/invites', body)).data);
}

/** Whose invitation a link is (organisation and inviter), without an account; refused for a dead link. */
export async function previewInviteLink(token: string): Promise<InviteLinkPreview> {
  return inviteLinkPreviewSchema.parse((await api.post('/invites/preview', { token })).data);
}

export async function acceptInviteLink(token: string): Promise<AcceptInviteLinkResponse> {
  return acceptInviteLinkResponseSchema.parse((await api.post('/invites/accept', { token })).data);
}

export async function fetchAllOrganizations(): Promise<AdminOrganization[]> {
  return z.array(adminOrganizationSchema).parse((await api.get('/admin/organizations')).data);
}
