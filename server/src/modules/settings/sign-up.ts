import { SIGN_UP_INVITE_ONLY } from '@portal/contract/invite-link';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../shared/errors.ts';
import type { SignUpClaim, SignUpGate, VerifiedIdentity } from '../../shared/identity.ts';
import { readSettings } from './settings.repo.ts';

/**
 * Port of the organisations module: whether an open invite (pending or declined, not expired) names this person,
 * asked in the transaction that creates them; undefined if none, else what admitting them spends.
 */
export type InvitedToSignUp = (
  who: { uid: string; email: string | null; emailVerified: boolean },
  inviteToken: string | undefined,
  trx: Database,
) => Promise<SignUpClaim | undefined>;

export const signUpInviteOnly = () =>
  new AppError(
    403,
    SIGN_UP_INVITE_ONLY,
    'Sign-up is by invitation only. Open the link in your invitation e-mail, or sign in with the verified address it was sent to.',
  );

/**
 * The sign-up setting, read on the first authenticated call of someone new (never for known users), so a change
 * applies to the next sign-up in every API process (docs/adr/0033).
 */
export function createSignUpGate(invited: InvitedToSignUp): SignUpGate {
  return {
    async admit(identity: VerifiedIdentity, inviteToken: string | undefined, trx: Database) {
      if ((await readSettings(trx)).signUp === 'open') return undefined;
      const who = {
        uid: identity.uid,
        email: identity.email ?? null,
        emailVerified: identity.email !== undefined && identity.emailVerified === true,
      };
      const claim = await invited(who, inviteToken, trx);
      if (claim) return claim;
      throw signUpInviteOnly();
    },
  };
}
