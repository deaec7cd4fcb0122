import { z } from 'zod';

/** The four answers the server gives to a refused organisation name (spec §5, §8). */
export const organizationErrorCodes = [
  'MaximumOrganizationCreated',
  'CanNotBeEmpty',
  'AlreadyTaken',
  'MinimumCharactersNotMet',
] as const;
export type OrganizationErrorCode = (typeof organizationErrorCodes)[number];

export const ORGANIZATION_NAME_MAX = 32;
export const ORGANIZATION_NAME_MIN_SIGNIFICANT = 3;
/** How many organisations one user may own; the spec leaves the number open (docs/adr/0007-organizations.md). */
export const MAX_ORGANIZATIONS_PER_USER = 3;

/** Letters and digits in any script count; spaces, punctuation and symbols are the 'special characters' of spec §5. */
export function significantCharacters(name: string): number {
  return (name.match(/[\p{L}\p{N}]/gu) ?? []).length;
}

/** The client-side and server-side check of a name, in the server's order; undefined when acceptable. */
export function organizationNameProblem(
  name: string,
): Exclude<OrganizationErrorCode, 'MaximumOrganizationCreated' | 'AlreadyTaken'> | undefined {
  if (name.trim() === '') return 'CanNotBeEmpty';
  if (significantCharacters(name) < ORGANIZATION_NAME_MIN_SIGNIFICANT) return 'MinimumCharactersNotMet';
  return undefined;
}

export const createOrganizationBodySchema = z.object({ name: z.string().max(ORGANIZATION_NAME_MAX) });
export type CreateOrganizationBody = z.infer<typeof createOrganizationBodySchema>;

export const createOrganizationResponseSchema = z.object({ success: z.literal(true), value: z.string() });
export const createOrganizationErrorSchema = z.object({
  success: z.literal(false),
  error: z.enum(organizationErrorCodes),
  code: z.enum(organizationErrorCodes),
  message: z.string(),
});

export const organizationRoles = ['owner', 'admin', 'member'] as const;
export type OrganizationRole = (typeof organizationRoles)[number];

export const organizationParamsSchema = z.object({ orgId: z.uuid() });

export const organizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(organizationRoles),
  memberCount: z.number().int(),
  /** The organisation's own tokens, spent on its NTRIP accounts by owners and admins. */
  tokenAmount: z.number().int(),
  createdAt: z.string(),
});
export type Organization = z.infer<typeof organizationSchema>;

export const memberSchema = z.object({
  userId: z.string(),
  email: z.string().nullable(),
  displayName: z.string().nullable(),
  role: z.enum(organizationRoles),
  joinedAt: z.string(),
});
export type Member = z.infer<typeof memberSchema>;

/** Owners may make others owners too; the last owner can never be demoted (docs/adr/0026). */
export const updateMemberBodySchema = z.object({ forMember: z.uuid(), role: z.enum(organizationRoles) });
export type UpdateMemberBody = z.infer<typeof updateMemberBodySchema>;

export const memberRefBodySchema = z.object({ forMember: z.uuid() });
export type MemberRefBody = z.infer<typeof memberRefBodySchema>;

export const renameOrganizationBodySchema = z.object({ name: z.string().max(ORGANIZATION_NAME_MAX) });
/** Deleting asks for the organisation's name, typed again. */
export const deleteOrganizationBodySchema = z.object({ name: z.string().max(200) });

/** Moves tokens from the caller's own balance to the organisation's. */
export const organizationTokenTransferBodySchema = z.object({ tokenAmount: z.number().int().min(1).max(1_000_000) });
export const organizationTokensSchema = z.object({ tokenAmount: z.number().int() });

/** The answer of a change that has nothing else to report (members, invites, leave, rename, delete). */
export const organizationChangedSchema = z.object({ success: z.literal(true) });
export type OrganizationChanged = z.infer<typeof organizationChangedSchema>;

export const inviteStatuses = ['pending', 'accepted', 'declined', 'revoked'] as const;
export type InviteStatus = (typeof inviteStatuses)[number];
/** As shown: a pending invite past its expiry is `expired`. */
export const shownInviteStatuses = [...inviteStatuses, 'expired'] as const;

export const orgInviteSchema = z.object({
  email: z.string(),
  status: z.enum(shownInviteStatuses),
  invitedBy: z.string().nullable(),
  /** The e-mail of the user who accepted; with the invite's link that may differ from `email`. */
  acceptedBy: z.string().nullable(),
  createdAt: z.string(),
});
export type OrgInvite = z.infer<typeof orgInviteSchema>;

export const inviteEmailBodySchema = z.object({ email: z.email().max(254) });

/**
 * Sending an invite answers its secret link, once: only its hash is stored. Whoever opens it while logged in joins,
 * whatever their e-mail (docs/adr/0007-organizations.md).
 */
export const inviteCreatedResponseSchema = z.object({
  success: z.literal(true),
  link: z.string(),
  /** The portal e-mailed the link; false without a mail server (the inviter passes the link on). */
  mailed: z.boolean(),
});
export type InviteCreatedResponse = z.infer<typeof inviteCreatedResponseSchema>;

export const acceptInviteLinkBodySchema = z.object({ token: z.string().min(1).max(128) });
/** `POST /invites/preview` with the link's token: what the invite page names before the visitor answers. */
export const previewInviteLinkBodySchema = acceptInviteLinkBodySchema;
export const inviteLinkPreviewSchema = z.object({
  organization: z.object({ name: z.string() }),
  /** The inviter's name, else their e-mail; null once their account is gone. */
  inviter: z.string().nullable(),
});
export type InviteLinkPreview = z.infer<typeof inviteLinkPreviewSchema>;
/** `POST /invites/decline` with the link's token. */
export const declineInviteLinkBodySchema = acceptInviteLinkBodySchema;
export type AcceptInviteLinkBody = z.infer<typeof acceptInviteLinkBodySchema>;
export const acceptInviteLinkResponseSchema = z.object({
  success: z.literal(true),
  organization: z.object({ id: z.string(), name: z.string() }),
  /** The organisation's page in the SPA. */
  url: z.string(),
});
export type AcceptInviteLinkResponse = z.infer<typeof acceptInviteLinkResponseSchema>;

export const myInviteSchema = z.object({
  organization: z.object({ id: z.string(), name: z.string() }),
  status: z.enum(shownInviteStatuses),
  createdAt: z.string(),
});
export type MyInvite = z.infer<typeof myInviteSchema>;

export const inviteActions = ['accept', 'decline', 'acceptDeclined'] as const;
export const inviteActionBodySchema = z.object({ action: z.enum(inviteActions), organization: z.uuid() });
export type InviteActionBody = z.infer<typeof inviteActionBodySchema>;

export const adminOrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  ownerEmail: z.string().nullable(),
  memberCount: z.number().int(),
  createdAt: z.string(),
});
export type AdminOrganization = z.infer<typeof adminOrganizationSchema>;
