import { INVITE_TOKEN_HEADER } from '@portal/contract/invite-link';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UsersRepo } from '../modules/users/users.repo.ts';
import { AppError, forbidden, unauthenticated } from './errors.ts';
import type { IdentityVerifier, SignUpGate, VerifiedIdentity } from './identity.ts';

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
}

export type AuthLevel = 'public' | 'optional' | 'user' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; checked before the body is parsed, so an anonymous caller gets 401, not 400. */
    auth?: AuthLevel;
  }
  interface FastifyRequest {
    actor: Actor | null;
    /**
     * The bearer's verified identity on every route, public ones included; null without a token or when it did
     * not verify. The rate limit counts a caller with one by account instead of by address (http/rate-limit.ts).
     */
    identity: VerifiedIdentity | null;
  }
}

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, token] = header.split(' ');
  if (scheme?.toLowerCase() !== 'bearer' || !token) return null;
  return token;
}

/**
 * Two steps with the rate limit between them (its hook belongs to each route, so it runs after these onRequest
 * hooks and before preParsing): first who is calling, on every route, so a signed-in customer is never counted
 * against the address they share with others; then whether they may, so a missing or failed token spends its
 * address's budget before it is answered 401.
 */
export function registerAuth(
  app: FastifyInstance,
  deps: { verifier: IdentityVerifier; users: UsersRepo; signUp: SignUpGate },
): void {
  app.decorateRequest('actor', null);
  app.decorateRequest('identity', null);

  app.addHook('onRequest', async (request) => {
    const token = bearer(request);
    if (!token) return;
    try {
      request.identity = await deps.verifier.verify(token);
    } catch (err) {
      request.log.debug({ err }, 'identity token rejected');
    }
  });

  app.addHook('preParsing', async (request) => {
    const level = request.routeOptions.config?.auth ?? 'public';
    if (level === 'public') return;
    const identity = request.identity;
    if (!identity) {
      // A token that does not verify is refused even where none is needed: the caller meant to be someone.
      if (level === 'optional' && !bearer(request)) return;
      throw unauthenticated();
    }
    const user = await deps.users.upsertFromIdentity(identity, (trx) => {
      const header = request.headers[INVITE_TOKEN_HEADER];
      return deps.signUp.admit(identity, typeof header === 'string' && header !== '' ? header : undefined, trx);
    });
    if (user.disabled) throw new AppError(403, 'account_disabled', 'This account has been disabled.');
    request.actor = {
      userId: user.id,
      uid: user.firebase_uid,
      email: user.email,
      // The row keeps an older address when a token carries none; only the token's own address counts as proven.
      emailVerified: identity.email !== undefined && identity.emailVerified === true,
      isAdmin: user.is_admin,
      termsAcceptedAt:
        user.current_terms_version !== null && (user.terms_version ?? 0) < user.current_terms_version
          ? null
          : user.terms_accepted_at,
      termsVersion: user.current_terms_version,
      ...(identity.authTime !== undefined && { authTime: identity.authTime }),
    };
    if (level === 'admin' && !user.is_admin) throw forbidden();
  });
}

/** The caller of a route declared with auth 'user' or 'admin'; the hook guarantees it is set. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthenticated();
  return request.actor;
}
