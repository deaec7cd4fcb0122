import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  type AcceptInviteLinkResponse,
  type AdminOrganization,
  type InviteActionBody,
  type Member,
  type MyInvite,
  type Organization,
  type OrganizationErrorCode,
  type OrgInvite,
  organizationNameProblem,
  type Team,
  type UpdateMemberBody,
} from '@portal/contract';
import { INVITE_LINK_PATH } from '@portal/contract/invite-link';
import type { Actor } from '../../http/auth.ts';
import { AppError, conflict, forbidden, notFound } from '../../http/errors.ts';
import { iso } from '../../http/iso.ts';
import type { Mailer } from '../mail/index.ts';
import { canManageOrganization, canUpdateMemberRole } from './organizations.policy.ts';
import type { OrganizationsRepo } from './organizations.repo.ts';

export const ORGANIZATION_ERROR_MESSAGES: Record<OrganizationErrorCode, string> = {
  MaximumOrganizationCreated: 'You have reached the maximum amount of organizations you can create.',
  CanNotBeEmpty: 'The organization name can not be empty.',
  AlreadyTaken: 'This name is already taken.',
  MinimumCharactersNotMet: 'The organization name has to be at least 3 characters long. Excluding special characters.',
};

/** A refused organisation name: HTTP 400 whose code is one of the spec's four. */
export class OrganizationNameError extends AppError {
  constructor(readonly reason: OrganizationErrorCode) {
    // The spec's clients read `error` (the code) or `reason` (the text) from a 400 answer.
    super(400, reason, ORGANIZATION_ERROR_MESSAGES[reason], undefined, {
      success: false,
      error: reason,
      reason: ORGANIZATION_ERROR_MESSAGES[reason],
    });
  }
}

export const organizationUrl = (id: string) => `/settings/organization?org=${id}`;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** An invite addressed to an e-mail is only handed to a user who proved they own it (docs/adr/0007). */
const emailNotVerified = () =>
  new AppError(
    403,
    'email_not_verified',
    'Verify your e-mail address to see and answer the invitations sent to it, or open the invite link you were given.',
  );
/**
 * The invite lifetime setting counts from the invite's last change: its sending (or sending again), or for a
 * declined invite its decline, which the invitee may still turn into an acceptance within the lifetime.
 */
async function refuseExpired(
  invite: { updated_at: Date },
  settings: () => Promise<{ inviteLifetimeDays: number | null }>,
) {
  const { inviteLifetimeDays } = await settings();
  if (inviteLifetimeDays === null) return;
  if (Date.now() - new Date(invite.updated_at).getTime() > inviteLifetimeDays * 86_400_000) {
    throw new AppError(410, 'invite_expired', 'This invite has expired. Ask the organisation to invite you again.');
  }
}

const inviteLinkInvalid = () =>
  new AppError(404, 'invite_link_invalid', 'This invite link is not valid or has already been used.');

export type OrganizationsService = ReturnType<typeof createOrganizationsService>;

export function createOrganizationsService({
  repo,
  publicUrl,
  mailer,
}: {
  repo: OrganizationsRepo;
  publicUrl: string;
  /** Queues the invitation and membership mails in the same transaction as the change. */
  mailer?: Pick<Mailer, 'queue' | 'preferences'>;
}) {
  async function requireRole(orgId: string, actor: Actor) {
    const role = await repo.roleOf(orgId, actor.userId);
    // Outsiders learn nothing, not even that the organisation exists.
    if (!role) throw notFound('Organisation');
    return role;
  }
  async function requireManager(orgId: string, actor: Actor) {
    const role = await requireRole(orgId, actor);
    if (!canManageOrganization(role)) throw forbidden('Only owners and admins of the organisation may do this.');
    return role;
  }

  return {
    /** The port other modules (billing) ask about membership; undefined means not a member. */
    roleOf: (orgId: string, userId: string) => repo.roleOf(orgId, userId),

    async listAll(): Promise<AdminOrganization[]> {
      const rows = await repo.listAll();
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        ownerEmail: r.owner_email,
        memberCount: Number(r.member_count),
        createdAt: iso(r.created_at),
      }));
    },

    /** A user's organisations and roles, for the back office's customer page. */
    async teamsOfUser(userId: string): Promise<Team[]> {
      const rows = await repo.teamsOf(userId);
      return rows.map((r) => ({ id: r.id, name: r.name, role: r.role, url: organizationUrl(r.id) }));
    },

    async teams(actor: Actor): Promise<Team[]> {
      const rows = await repo.teamsOf(actor.userId);
      return rows.map((r) => ({ id: r.id, name: r.name, role: r.role, url: organizationUrl(r.id) }));
    },

    async create(actor: Actor, rawName: string): Promise<string> {
      const name = rawName.trim();
      const problem = organizationNameProblem(name);
      if (problem) throw new OrganizationNameError(problem);
      return repo.transaction(async (tx) => {
        // Serialises one user's concurrent creations so the limit cannot be raced past.
        await tx.lockUser(actor.userId);
        const { organizationsPerUser } = await tx.settings();
        if ((await tx.countOwnedBy(actor.userId)) >= organizationsPerUser) {
          throw new OrganizationNameError('MaximumOrganizationCreated');
        }
        if (await tx.nameTaken(name)) throw new OrganizationNameError('AlreadyTaken');
        const org = await tx.create(name, actor.userId).catch((err: unknown) => {
          if ((err as { code?: string }).code === '23505') throw new OrganizationNameError('AlreadyTaken');
          throw err;
        });
        return organizationUrl(org.id);
      });
    },

    async get(actor: Actor, orgId: string): Promise<Organization> {
      const role = await requireRole(orgId, actor);
      const org = await repo.find(orgId);
      if (!org) throw notFound('Organisation');
      return {
        id: org.id,
        name: org.name,
        role,
        memberCount: Number(org.member_count),
        createdAt: iso(org.created_at),
      };
    },

    async members(actor: Actor, orgId: string): Promise<Member[]> {
      await requireRole(orgId, actor);
      const rows = await repo.members(orgId);
      return rows.map((m) => ({
        userId: m.user_id,
        email: m.email,
        displayName: m.display_name,
        role: m.role,
        joinedAt: iso(m.joined_at),
      }));
    },

    async updateMember(actor: Actor, orgId: string, body: UpdateMemberBody): Promise<void> {
      const actorRole = await requireManager(orgId, actor);
      const targetRole = await repo.roleOf(orgId, body.forMember);
      if (!targetRole) throw notFound('Member');
      if (!canUpdateMemberRole(actorRole, targetRole, body.role)) {
        throw forbidden('Your role in this organisation does not allow this change.');
      }
      await repo.transaction(async (tx, trx) => {
        await tx.setRole(orgId, body.forMember, body.role);
        const org = await tx.find(orgId);
        if (org && targetRole !== body.role) {
          await mailer?.queue(trx, {
            key: `membership:${orgId}:${body.forMember}:${randomUUID()}`,
            userId: body.forMember,
            content: { kind: 'membership', organizationName: org.name, change: 'role', role: body.role },
          });
        }
      });
    },

    async invites(actor: Actor, orgId: string): Promise<OrgInvite[]> {
      await requireManager(orgId, actor);
      const rows = await repo.invites(orgId);
      return rows.map((i) => ({
        email: i.email,
        status: i.status,
        invitedBy: i.invited_by,
        acceptedBy: i.accepted_by,
        createdAt: iso(i.created_at),
      }));
    },

    /** Answers the invite's secret link; it is not stored, so this is the only time anyone sees it. */
    async invite(actor: Actor, orgId: string, rawEmail: string): Promise<string> {
      await requireManager(orgId, actor);
      const email = rawEmail.trim().toLowerCase();
      if (await repo.isMemberByEmail(orgId, email)) {
        throw conflict('already_member', `${email} is already a member of this organisation.`, 'email');
      }
      const existing = await repo.findInvite(orgId, email);
      if (existing?.status === 'pending') {
        throw conflict('already_invited', `${email} has already been invited.`, 'email');
      }
      const token = randomBytes(32).toString('base64url');
      const link = new URL(INVITE_LINK_PATH, publicUrl);
      link.searchParams.set('token', token);
      // The invitee may not have an account: the mail is in the inviter's language.
      const locale = mailer && (await mailer.preferences(actor.userId)).locale;
      await repo.transaction(async (tx, trx) => {
        await tx.upsertInvite(orgId, email, actor.userId, hashToken(token));
        const org = await tx.find(orgId);
        await mailer?.queue(trx, {
          // Each invite (a new link) is its own event; the key names it without the link's secret.
          key: `invitation:${hashToken(hashToken(token))}`,
          recipient: email,
          locale,
          content: {
            kind: 'invitation',
            organizationName: org?.name ?? '',
            inviter: actor.email ?? '',
            link: link.toString(),
          },
        });
      });
      return link.toString();
    },

    async revokeInvite(actor: Actor, orgId: string, rawEmail: string): Promise<void> {
      await requireManager(orgId, actor);
      if (!(await repo.deleteInvite(orgId, rawEmail.trim().toLowerCase()))) throw notFound('Invite');
    },

    /** Empty for an unverified address: its invites would show organisation names to whoever registered it. */
    async myInvites(actor: Actor): Promise<MyInvite[]> {
      if (!actor.email || !actor.emailVerified) return [];
      const rows = await repo.invitesFor(actor.email.toLowerCase());
      return rows.map((r) => ({
        organization: { id: r.id, name: r.name },
        status: r.status,
        createdAt: iso(r.created_at),
      }));
    },

    async answerInvite(actor: Actor, body: InviteActionBody): Promise<void> {
      // Checked first, so an unverified caller learns nothing about which invites exist.
      if (!actor.emailVerified) throw emailNotVerified();
      const email = actor.email?.toLowerCase();
      const invite = email ? await repo.findInvite(body.organization, email) : undefined;
      if (!email || !invite) throw notFound('Invite');
      const from = body.action === 'acceptDeclined' ? 'declined' : 'pending';
      if (invite.status !== from) {
        throw conflict(
          'invite_not_open',
          `This invite is ${invite.status}; it cannot be answered with ${body.action}.`,
        );
      }
      if (body.action !== 'decline') await refuseExpired(invite, repo.settings);
      await repo.transaction(async (tx) => {
        await tx.setInviteStatus(
          body.organization,
          email,
          body.action === 'decline' ? 'declined' : 'accepted',
          actor.userId,
        );
        if (body.action !== 'decline') await tx.addMember(body.organization, actor.userId);
      });
    },

    /** The link is the proof: any logged-in user who holds it joins, once, whatever their e-mail. */
    async acceptInviteLink(actor: Actor, token: string): Promise<AcceptInviteLinkResponse> {
      return repo.transaction(async (tx) => {
        const invite = await tx.lockInviteByToken(hashToken(token));
        // A declined invite keeps its link for the verified owner's acceptDeclined, but the link no longer opens it.
        if (invite?.status !== 'pending') throw inviteLinkInvalid();
        await refuseExpired(invite, tx.settings);
        const orgId = invite.organization_id;
        if (await tx.roleOf(orgId, actor.userId)) {
          throw conflict('already_member', 'You are already a member of this organisation.');
        }
        await tx.setInviteStatus(orgId, invite.email, 'accepted', actor.userId);
        await tx.addMember(orgId, actor.userId);
        return { success: true, organization: { id: orgId, name: invite.name }, url: organizationUrl(orgId) };
      });
    },
  };
}
