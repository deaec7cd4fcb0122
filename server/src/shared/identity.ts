// Apart from http/auth.ts so that the users module can take an identity without depending on the auth hooks that use it.

import type { Database } from '../db/client.ts';

/** What a verified identity token says about its bearer. */
export interface VerifiedIdentity {
  uid: string;
  email?: string;
  /** Whether the identity provider has seen the bearer prove they receive mail at `email`. */
  emailVerified?: boolean;
  name?: string;
  picture?: string;
  /** When the bearer last signed in (seconds since the epoch), for calls that need a recent sign-in. */
  authTime?: number;
}

/** Port: turns a bearer token into an identity or throws. Firebase in the app, the Auth Emulator in tests. */
export interface IdentityVerifier {
  verify(idToken: string): Promise<VerifiedIdentity>;
  /** Deletes the identity-provider account (account deletion). Absent in verifiers that cannot. */
  deleteAccount?(uid: string): Promise<void>;
}

/** What admitting a newcomer spends, run with their new user's id in the transaction that creates it. */
export type SignUpClaim = (userId: string) => Promise<void>;

/**
 * Port: whether someone the portal has never seen may become a user, asked on their first authenticated call with
 * the invite link's token their browser holds, if any, inside the transaction `trx` that will create the user.
 * Throws the refusal (docs/adr/0033); otherwise answers what the admission spends, if anything.
 */
export interface SignUpGate {
  admit(identity: VerifiedIdentity, inviteToken: string | undefined, trx: Database): Promise<SignUpClaim | undefined>;
}
