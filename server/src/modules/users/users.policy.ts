import type { Actor } from '../../shared/actor.ts';

/** An admin may change other users' flags but not their own, so nobody can lock the last admin out by a slip. */
export function canChangeUserFlags(actor: Actor, targetUserId: string): boolean {
  return actor.isAdmin && actor.userId !== targetUserId;
}
