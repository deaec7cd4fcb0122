import type { OrganizationRole } from '@portal/contract';

/** Owners and admins run the organisation; members only see it. */
export function canManageOrganization(role: OrganizationRole | undefined): boolean {
  return role === 'owner' || role === 'admin';
}

/**
 * Who may give whom which role: only the owner hands out or takes back the admin role, admins may only
 * change plain members, and nobody changes the owner's role here (ownership transfer is its own act).
 */
export function canUpdateMemberRole(
  actorRole: OrganizationRole | undefined,
  targetRole: OrganizationRole,
  newRole: Exclude<OrganizationRole, 'owner'>,
): boolean {
  if (!canManageOrganization(actorRole) || targetRole === 'owner') return false;
  if (actorRole === 'owner') return true;
  return targetRole === 'member' && newRole === 'member';
}
