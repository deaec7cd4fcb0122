import type { ApiKeyScope } from '@portal/contract';

/** The authenticated caller as every service sees it. */
export interface Actor {
  userId: string;
  uid: string;
  email: string | null;
  /**
   * From the token: the bearer proved they own `email`. Anyone may sign up with any address, so nothing addressed to
   * an e-mail (invites) is handed over on an unverified one.
   */
  emailVerified: boolean;
  isAdmin: boolean;
  /**
   * When the user accepted the terms and conditions, null if never or if a newer version was published since
   * (docs/adr/0012-terms-acceptance.md, 0028).
   */
  termsAcceptedAt: Date | null;
  /** The latest published terms version, null before the first publication. */
  termsVersion?: number | null;
  /** From the token: when the caller last signed in (seconds since the epoch). */
  authTime?: number;
  /** Set when the call is made with an API key instead of an ID token (issue 37). */
  apiKey?: ApiKeyPrincipal;
}

/** A valid API key: it acts for its owner, within its scopes, and for an organisation's key only on that one. */
export interface ApiKeyPrincipal {
  id: string;
  prefix: string;
  userId: string;
  organizationId: string | null;
  scopes: ApiKeyScope[];
}
