import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { LedgerNoteCode } from '@portal/contract';
import {
  type AcceptInviteLinkResponse,
  type AdminOrganization,
  type InviteActionBody,
  type InviteLinkPreview,
  type InviteStatus,
  MAX_TOKEN_BALANCE,
  type Member,
  type MyInvite,
  type Organization,
  type OrganizationErrorCode,
  type OrganizationRole,
  type OrgInvite,
  organizationNameProblem,
  type Team,
  type UpdateMemberBody,
} from '@portal/contract';
import { INVITE_LINK_PATH } from '@portal/contract/invite-link';
import type { Database } from '../../db/client.ts';
import type { Actor } from '../../shared/actor.ts';
import { AppError, conflict, forbidden, notFound } from '../../shared/errors.ts';
import type { SignUpClaim } from '../../shared/identity.ts';
import { iso } from '../../shared/iso.ts';
import { balanceOutOfRange } from '../../shared/token-balance.ts';
import type { Mailer } from '../mail/index.ts';
import {
  canManageOrganization,
  canRemoveMember,
  canUpdateMemberRole,
  inviteExpired,
  leavesWithoutOwner,
} from './organizations.policy.ts';
import type { OrganizationsQueries, OrganizationsRepo } from './organizations.repo.ts';

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
const inviteLinkInvalid = () =>
  new AppError(404, 'invite_link_invalid', 'This invite link is not valid or has already been used.');
const inviteRevoked = () => new AppError(410, 'invite_revoked', 'This invitation was revoked by the organisation.');
const inviteExpiredError = () =>
  new AppError(410, 'invite_expired', 'This invitation has expired. Ask the organisation to invite you again.');
const lastOwner = () =>
  conflict(
    'last_owner',
    'An organisation must keep an owner: make another member owner first, or delete the organisation.',
  );
const notManager = () => forbidden('Only owners and admins of the organisation may do this.');

/** The personal token ledger (billing's), inside the caller's transaction. */
export interface PersonalTokens {
  append(
    entry: {
      userId: string;
      kind: 'organization_transfer';
      delta: number;
      referenceId?: string;
      note?: string;
      noteCode?: LedgerNoteCode;
      noteParams?: Record<string, string | number>;
    },
    trx: Database,
  ): Promise<{ balance: number }>;
}

/** The caster's side: it drops these accounts' cached decisions and open connections (the ntrip module). */
export interface AccessChanges {
  accessChanged(change: {
    accountId: string;
    ownerUserId: string;
    reason: 'disabled' | 'deleted';
  }): Promise<void> | void;
}

/** What deleting an organisation ends in the modules above this one, handed in by the account-deletion module. */
export interface OrganizationDeletion {
  /** Ends the organisation's subscriptions now, at the provider first (billing). */
  endSubscriptions(): Promise<void>;
  /** Ends its NTRIP accounts and grants in the deletion's transaction; answers the accounts ended. */
  endAccounts(now: Date, trx: Database): Promise<{ id: string; owner_user_id: string }[]>;
}

export type OrganizationsService = ReturnType<typeof createOrganizationsService>;

export function createOrganizationsService({
  repo,
  publicUrl,
  mailer,
  tokens,
  access,
  clock = () => new Date(),
}: {
  repo: OrganizationsRepo;
  publicUrl: string;
  /** Queues the invitation and membership mails in the same transaction as the change. */
  mailer?: Pick<Mailer, 'queue' | 'preferences'> & Partial<Pick<Mailer, 'delivers'>>;
  tokens?: PersonalTokens;
  access?: AccessChanges;
  clock?: () => Date;
}) {
  async function requireRole(orgId: string, actor: Actor, tx: Pick<OrganizationsQueries, 'roleOf'> = repo) {
    const role = await tx.roleOf(orgId, actor.userId);
    // Outsiders learn nothing, not even that the organisation exists.
    if (!role) throw notFound('Organisation');
    return role;
  }
  async function requireManager(orgId: string, actor: Actor, tx: Pick<OrganizationsQueries, 'roleOf'> = repo) {
    const role = await requireRole(orgId, actor, tx);
    if (!canManageOrganization(role)) throw notManager();
    return role;
  }
  /**
   * A change to one organisation: its row locked, then the caller's role read and checked in the same transaction,
   * so a concurrent demotion or removal is either wholly before or wholly after this.
   */
  function locked<T>(
    orgId: string,
    actor: Actor,
    need: 'member' | 'manager',
    work: (tx: OrganizationsQueries, role: OrganizationRole, trx: Database) => Promise<T>,
  ): Promise<T> {
    return repo.transaction(async (tx, trx) => {
      if (!(await tx.lockOrganization(orgId))) throw notFound('Organisation');
      const role = need === 'manager' ? await requireManager(orgId, actor, tx) : await requireRole(orgId, actor, tx);
      return work(tx, role, trx);
    });
  }
  async function held(orgId: string, userId: string) {
    return repo.accountsHeldBy(orgId, userId);
  }
  async function dropAccess(accounts: { id: string; owner_user_id: string }[], reason: 'disabled' | 'deleted') {
    if (accounts.length === 0) return;
    try {
      for (const account of accounts) {
        await access?.accessChanged({ accountId: account.id, ownerUserId: account.owner_user_id, reason });
      }
    } catch {
      // The caster's decisions also expire on their own and the auth epoch moved with the membership row.
    }
  }
  /** The membership mail to `userId`, in the change's transaction; each change is its own event. */
  async function tellMember(
    tx: OrganizationsQueries,
    trx: Database,
    orgId: string,
    userId: string,
    change: { change: 'role'; role: OrganizationRole } | { change: 'removed' | 'deleted' },
  ) {
    const org = await tx.find(orgId);
    if (!org || !mailer) return;
    await mailer.queue(trx, {
      key: `membership:${orgId}:${userId}:${randomUUID()}`,
      userId,
      content: {
        kind: 'membership',
        organizationName: org.name,
        ...(change.change === 'role' ? change : { change: change.change, role: '' }),
      },
    });
  }
  /** The invite lifetime setting in force (docs/adr/0028); null: invites do not expire. */
  const lifetime = async (tx: Pick<OrganizationsQueries, 'settings'> = repo) =>
    (await tx.settings()).inviteLifetimeDays;
  const shownStatus = (invite: { status: InviteStatus; updated_at: Date }, days: number | null) =>
    invite.status === 'pending' && inviteExpired(invite, days, clock()) ? ('expired' as const) : invite.status;

  /** The invite a link opens, locked; refused with the reason a person can act on. */
  async function openByLink(tx: OrganizationsQueries, token: string) {
    const invite = await tx.lockInviteByToken(hashToken(token));
    if (!invite || invite.status === 'accepted') throw inviteLinkInvalid();
    if (invite.status === 'revoked') throw inviteRevoked();
    if (inviteExpired(invite, await lifetime(tx), clock())) throw inviteExpiredError();
    return invite;
  }

  return {
    /**
     * The sign-up gate's question (docs/adr/0033): an invite that can still be accepted names this person, by the
     * link they hold or by their address, which counts only once proven, as for answering an invite. A link admits
     * one newcomer: the first it admits spends it in the transaction `trx` that creates them (issue 31); the same
     * person's other first calls at once find it spent by themselves.
     */
    async invitedToSignUp(
      who: { uid: string; email: string | null; emailVerified: boolean },
      token: string | undefined,
      trx: Database,
    ): Promise<SignUpClaim | undefined> {
      const tx = repo.within(trx);
      const days = await lifetime(tx);
      const open = (invite: { status: InviteStatus; updated_at: Date } | undefined) =>
        invite !== undefined &&
        (invite.status === 'pending' || invite.status === 'declined') &&
        !inviteExpired(invite, days, clock());
      const tokenHash = token && hashToken(token);
      const byLink = tokenHash ? await tx.lockInviteForSignUp(tokenHash) : undefined;
      if (tokenHash && byLink && open(byLink)) {
        if (byLink.signed_up_user_id === null) return (userId) => tx.spendInviteSignUp(tokenHash, userId);
        if (byLink.signed_up_uid === who.uid) return async () => {};
      }
      if (!who.email || !who.emailVerified) return undefined;
      // An address the identity provider has proven is the invitee's own: it spends nothing.
      return (await tx.invitesFor(who.email.toLowerCase())).some(open) ? async () => {} : undefined;
    },

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
        tokenAmount: Number(org.token_balance),
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
      await locked(orgId, actor, 'manager', async (tx, actorRole, trx) => {
        const targetRole = await tx.roleOf(orgId, body.forMember);
        if (!targetRole) throw notFound('Member');
        if (!canUpdateMemberRole(actorRole, targetRole, body.role)) {
          throw forbidden('Your role in this organisation does not allow this change.');
        }
        if (leavesWithoutOwner(targetRole, body.role, await tx.countOwners(orgId))) throw lastOwner();
        await tx.setRole(orgId, body.forMember, body.role);
        if (targetRole !== body.role) {
          await tellMember(tx, trx, orgId, body.forMember, { change: 'role', role: body.role });
        }
      });
    },

    /** Owners remove anyone, admins plain members; the caster then refuses the organisation's accounts they used. */
    async removeMember(actor: Actor, orgId: string, userId: string): Promise<void> {
      if (userId === actor.userId) return this.leave(actor, orgId);
      await locked(orgId, actor, 'manager', async (tx, actorRole, trx) => {
        const targetRole = await tx.roleOf(orgId, userId);
        if (!targetRole) throw notFound('Member');
        if (!canRemoveMember(actorRole, targetRole)) {
          throw forbidden('Your role in this organisation does not allow removing this member.');
        }
        if (leavesWithoutOwner(targetRole, null, await tx.countOwners(orgId))) throw lastOwner();
        await tx.removeMember(orgId, userId);
        await tellMember(tx, trx, orgId, userId, { change: 'removed' });
      });
      await dropAccess(await held(orgId, userId), 'disabled');
    },

    async leave(actor: Actor, orgId: string): Promise<void> {
      await locked(orgId, actor, 'member', async (tx, role) => {
        if (leavesWithoutOwner(role, null, await tx.countOwners(orgId))) throw lastOwner();
        await tx.removeMember(orgId, actor.userId);
      });
      await dropAccess(await held(orgId, actor.userId), 'disabled');
    },

    /** The owner hands the organisation to another member and stays on as admin. */
    async transferOwnership(actor: Actor, orgId: string, userId: string): Promise<void> {
      await locked(orgId, actor, 'member', async (tx, role, trx) => {
        if (role !== 'owner') throw forbidden('Only an owner can transfer the ownership of the organisation.');
        if (userId === actor.userId) throw conflict('already_owner', 'You are already an owner.');
        const before = await tx.roleOf(orgId, userId);
        if (!before) throw notFound('Member');
        await tx.setRole(orgId, userId, 'owner');
        await tx.setRole(orgId, actor.userId, 'admin');
        if (before !== 'owner') await tellMember(tx, trx, orgId, userId, { change: 'role', role: 'owner' });
      });
    },

    async rename(actor: Actor, orgId: string, rawName: string): Promise<void> {
      const name = rawName.trim();
      const problem = organizationNameProblem(name);
      if (problem) throw new OrganizationNameError(problem);
      await locked(orgId, actor, 'manager', async (tx) => {
        if (await tx.nameTakenByOther(orgId, name)) throw new OrganizationNameError('AlreadyTaken');
        await tx.rename(orgId, name).catch((err: unknown) => {
          if ((err as { code?: string }).code === '23505') throw new OrganizationNameError('AlreadyTaken');
          throw err;
        });
      });
    },

    /**
     * Deleting asks for the name typed again. Its subscriptions end first, at the provider (so nothing goes on
     * charging a member for an organisation that is gone); then, in one transaction, its NTRIP accounts and grants
     * end and it is deleted with its members and invites. Its remaining tokens go with it.
     */
    async remove(actor: Actor, orgId: string, typedName: string, deletion: OrganizationDeletion): Promise<void> {
      const org = await repo.find(orgId);
      await requireManager(orgId, actor);
      if (!org || typedName.trim() !== org.name) {
        throw new AppError(400, 'name_mismatch', 'Type the name of the organisation exactly to delete it.', 'name');
      }
      await deletion.endSubscriptions();
      const accounts = await locked(orgId, actor, 'manager', async (tx, _role, trx) => {
        const now = clock();
        // The other members lose the organisation with its accounts; the one deleting it knows already.
        for (const member of await tx.members(orgId)) {
          if (member.user_id !== actor.userId) await tellMember(tx, trx, orgId, member.user_id, { change: 'deleted' });
        }
        const gone = await deletion.endAccounts(now, trx);
        await tx.deleteOrganization(orgId);
        return gone;
      });
      await dropAccess(accounts, 'deleted');
    },

    async tokenAmount(actor: Actor, orgId: string): Promise<number> {
      await requireRole(orgId, actor);
      return Number((await repo.find(orgId))?.token_balance ?? 0);
    },

    /** Moves tokens from the caller's own balance to the organisation's, both ledgers in one transaction. */
    async transferTokens(actor: Actor, orgId: string, amount: number): Promise<number> {
      if (!tokens) throw new Error('organisation token transfers need the personal ledger');
      return locked(orgId, actor, 'manager', async (tx, _role, trx) => {
        const org = await tx.lockOrganization(orgId);
        const referenceId = randomBytes(16).toString('hex');
        await tokens.append(
          {
            userId: actor.userId,
            kind: 'organization_transfer',
            delta: -amount,
            referenceId,
            note: `To ${org?.name ?? 'an organisation'}`,
            noteCode: 'transfer_to',
            ...(org && { noteParams: { organization: org.name } }),
          },
          trx,
        );
        const balanceAfter = Number(org?.token_balance ?? 0) + amount;
        if (balanceAfter > MAX_TOKEN_BALANCE) throw balanceOutOfRange(balanceAfter);
        await tx.appendTokens({
          orgId,
          kind: 'transfer_in',
          delta: amount,
          balanceAfter,
          referenceId,
          note: null,
          createdBy: actor.userId,
        });
        return balanceAfter;
      });
    },

    async invites(actor: Actor, orgId: string): Promise<OrgInvite[]> {
      await requireManager(orgId, actor);
      const rows = await repo.invites(orgId);
      const days = await lifetime();
      return rows.map((i) => ({
        email: i.email,
        status: shownStatus(i, days),
        invitedBy: i.invited_by,
        acceptedBy: i.accepted_by,
        createdAt: iso(i.created_at),
      }));
    },

    /**
     * Answers the invite's secret link; it is not stored, so this is the only time anyone sees it. `mailed`: the
     * invitation went to a mail server's queue (not only the outbox of a portal without SMTP).
     */
    async invite(actor: Actor, orgId: string, rawEmail: string): Promise<{ link: string; mailed: boolean }> {
      const email = rawEmail.trim().toLowerCase();
      const token = randomBytes(32).toString('base64url');
      const link = new URL(INVITE_LINK_PATH, publicUrl);
      link.searchParams.set('token', token);
      // The invitee may not have an account: the mail is in the inviter's language.
      const locale = mailer && (await mailer.preferences(actor.userId)).locale;
      const mailed = await locked(orgId, actor, 'manager', async (tx, _role, trx) => {
        if (await tx.isMemberByEmail(orgId, email)) {
          throw conflict('already_member', `${email} is already a member of this organisation.`, 'email');
        }
        const existing = await tx.findInvite(orgId, email);
        // An expired invite may be sent again, as a declined or revoked one may.
        if (existing?.status === 'pending' && !inviteExpired(existing, await lifetime(tx), clock())) {
          throw conflict('already_invited', `${email} has already been invited.`, 'email');
        }
        await tx.upsertInvite(orgId, email, actor.userId, hashToken(token));
        const org = await tx.find(orgId);
        const queued = await mailer?.queue(trx, {
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
        return queued === true && mailer?.delivers === true;
      });
      return { link: link.toString(), mailed };
    },

    /** Only a pending invite is revoked; one already answered, or revoked, answers 404. */
    async revokeInvite(actor: Actor, orgId: string, rawEmail: string): Promise<void> {
      await locked(orgId, actor, 'manager', async (tx) => {
        if (!(await tx.revokeInvite(orgId, rawEmail.trim().toLowerCase()))) throw notFound('Invite');
      });
    },

    /** Empty for an unverified address: its invites would show organisation names to whoever registered it. */
    async myInvites(actor: Actor): Promise<MyInvite[]> {
      if (!actor.email || !actor.emailVerified) return [];
      const rows = await repo.invitesFor(actor.email.toLowerCase());
      const days = await lifetime();
      return rows.map((r) => ({
        organization: { id: r.id, name: r.name },
        status: shownStatus(r, days),
        createdAt: iso(r.created_at),
      }));
    },

    async answerInvite(actor: Actor, body: InviteActionBody): Promise<void> {
      // Checked first, so an unverified caller learns nothing about which invites exist.
      if (!actor.emailVerified) throw emailNotVerified();
      const email = actor.email?.toLowerCase();
      if (!email) throw notFound('Invite');
      await repo.transaction(async (tx) => {
        // The organisation's lock: a revocation or a deletion is wholly before or after this answer.
        if (!(await tx.lockOrganization(body.organization))) throw notFound('Invite');
        const invite = await tx.findInvite(body.organization, email);
        if (!invite) throw notFound('Invite');
        if (invite.status === 'revoked') throw inviteRevoked();
        // Declining an expired invite is harmless; answering it yes is not.
        if (body.action !== 'decline' && inviteExpired(invite, await lifetime(tx), clock())) throw inviteExpiredError();
        const from = body.action === 'acceptDeclined' ? 'declined' : 'pending';
        if (invite.status !== from) {
          throw conflict(
            'invite_not_open',
            `This invite is ${invite.status}; it cannot be answered with ${body.action}.`,
          );
        }
        await tx.setInviteStatus(
          body.organization,
          email,
          body.action === 'decline' ? 'declined' : 'accepted',
          actor.userId,
        );
        if (body.action !== 'decline') await tx.addMember(body.organization, actor.userId);
      });
    },

    /**
     * What the invite page shows before the visitor answers: the organisation and the inviter. Only for a link that
     * can still be accepted; any other answers the refusal accepting it would, which names nobody.
     */
    async previewInviteLink(token: string): Promise<InviteLinkPreview> {
      const invite = await repo.inviteByToken(hashToken(token));
      if (!invite || invite.status === 'accepted') throw inviteLinkInvalid();
      if (invite.status === 'revoked') throw inviteRevoked();
      if (inviteExpired(invite, await lifetime(), clock())) throw inviteExpiredError();
      const inviter = invite.inviter_name?.trim() || invite.inviter_email || null;
      return { organization: { name: invite.name }, inviter };
    },

    /**
     * The link is the proof: any logged-in user who holds it joins, once, whatever their e-mail. A declined invite
     * can still be accepted with it (accept after decline); a revoked or expired one says so.
     */
    async acceptInviteLink(actor: Actor, token: string): Promise<AcceptInviteLinkResponse> {
      return repo.transaction(async (tx) => {
        const invite = await openByLink(tx, token);
        const orgId = invite.organization_id;
        if (await tx.roleOf(orgId, actor.userId)) {
          throw conflict('already_member', 'You are already a member of this organisation.');
        }
        await tx.setInviteStatus(orgId, invite.email, 'accepted', actor.userId);
        await tx.addMember(orgId, actor.userId);
        return { success: true, organization: { id: orgId, name: invite.name }, url: organizationUrl(orgId) };
      });
    },

    /** Declines with the link; the link stays good for accepting later, until the invite expires. */
    async declineInviteLink(actor: Actor, token: string): Promise<void> {
      await repo.transaction(async (tx) => {
        const invite = await openByLink(tx, token);
        if (invite.status !== 'pending') {
          throw conflict('invite_not_open', `This invite is ${invite.status}; it cannot be declined.`);
        }
        if (await tx.roleOf(invite.organization_id, actor.userId)) {
          throw conflict('already_member', 'You are already a member of this organisation.');
        }
        await tx.setInviteStatus(invite.organization_id, invite.email, 'declined');
      });
    },
  };
}
