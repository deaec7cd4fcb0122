import type { OrganizationRole } from '@portal/contract';

/** Owners and admins run the organisation; members only see it. */
export function canManageOrganization(role: OrganizationRole | undefined): boolean {
  return role === 'owner' || role === 'admin';
}

/**
 * Who may give whom which role: owners change anyone's role, owner included (so there may be several owners);
 * admins may only leave plain members as they are. The last owner keeps the role whatever this says: the service
 * counts owners under the organisation's lock (docs/adr/0026).
 */
export function canUpdateMemberRole(
  actorRole: OrganizationRole | undefined,
  targetRole: OrganizationRole,
  newRole: OrganizationRole,
): boolean {
  if (actorRole === 'owner') return true;
  if (actorRole !== 'admin') return false;
  return targetRole === 'member' && newRole === 'member';
}

/** Owners remove anyone; admins remove plain members. Removing oneself is leaving. */
export function canRemoveMember(actorRole: OrganizationRole | undefined, targetRole: OrganizationRole): boolean {
  if (actorRole === 'owner') return true;
  return actorRole === 'admin' && targetRole === 'member';
}

/** An organisation always keeps an owner: the last one is never removed, demoted, nor leaves. */
export function leavesWithoutOwner(
  targetRole: OrganizationRole,
  newRole: OrganizationRole | null,
  owners: number,
): boolean {
  return targetRole === 'owner' && newRole !== 'owner' && owners <= 1;
}

/**
 * Past the invite lifetime setting (docs/adr/0028; null: invites do not expire), counted from the invite's last
 * change: its sending or sending again, or a decline, which may still be turned into an acceptance within it.
 */
export function inviteExpired(
  invite: { status: string; updated_at: Date | string },
  lifetimeDays: number | null,
  now: Date,
): boolean {
  if (lifetimeDays === null || invite.status === 'accepted') return false;
  return now.getTime() - new Date(invite.updated_at).getTime() > lifetimeDays * 86_400_000;
}
