import { API_KEY_PREFIX, type ApiKeyScope } from '@portal/contract';
import { INVITE_TOKEN_HEADER } from '@portal/contract/invite-link';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UsersRepo } from '../modules/users/users.repo.ts';
import type { Actor, ApiKeyPrincipal } from '../shared/actor.ts';
import { AppError, forbidden, unauthenticated } from '../shared/errors.ts';
import type { IdentityVerifier, SignUpGate, VerifiedIdentity } from '../shared/identity.ts';

export interface ApiKeyAuthenticator {
  /** The key a bearer value is, or null when it is malformed, unknown, revoked or expired. */
  authenticate(bearer: string, ip: string): Promise<ApiKeyPrincipal | null>;
}

export type AuthLevel = 'public' | 'optional' | 'user' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; checked before the body is parsed, so an anonymous caller gets 401, not 400. */
    auth?: AuthLevel;
    /**
     * The scope an API key needs to make this call; a route without one takes no key (docs/adr/0078). Admin routes
     * never take keys, whatever this says.
     */
    apiKey?: ApiKeyScope;
  }
  interface FastifyRequest {
    actor: Actor | null;
    /**
     * The bearer's verified identity on every route, public ones included; null without a token or when it did
     * not verify. The rate limit counts a caller with one by account instead of by address (http/rate-limit.ts).
     */
    identity: VerifiedIdentity | null;
    /** The API key the bearer value is, when it is one and valid; the rate limit counts such calls by key. */
    apiKey: ApiKeyPrincipal | null;
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
  deps: { verifier: IdentityVerifier; users: UsersRepo; signUp: SignUpGate; apiKeys?: ApiKeyAuthenticator },
): void {
  app.decorateRequest('actor', null);
  app.decorateRequest('identity', null);
  app.decorateRequest('apiKey', null);

  app.addHook('onRequest', async (request) => {
    const token = bearer(request);
    if (!token) return;
    if (token.startsWith(API_KEY_PREFIX)) {
      if (deps.apiKeys) request.apiKey = await deps.apiKeys.authenticate(token, request.ip);
      return;
    }
    try {
      request.identity = await deps.verifier.verify(token);
    } catch (err) {
      request.log.debug({ err }, 'identity token rejected');
    }
  });

  app.addHook('preParsing', async (request) => {
    const level = request.routeOptions.config?.auth ?? 'public';
    if (level === 'public') return;
    if (bearer(request)?.startsWith(API_KEY_PREFIX)) {
      request.actor = await apiKeyActor(request, level, deps.users);
      return;
    }
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

const invalidKey = () => new AppError(401, 'api_key_invalid', 'This API key is unknown, revoked or expired.');

/** Who a call made with an API key acts as, once the key, the route and the key's scopes and organisation agree. */
async function apiKeyActor(request: FastifyRequest, level: AuthLevel, users: UsersRepo): Promise<Actor> {
  const key = request.apiKey;
  if (!key) throw invalidKey();
  const scope = request.routeOptions.config?.apiKey;
  if (level === 'admin' || !scope) {
    throw new AppError(
      403,
      'api_key_not_accepted',
      'This call does not take API keys; sign in to the portal to make it.',
    );
  }
  if (!key.scopes.includes(scope)) {
    throw new AppError(403, 'api_key_scope', `This API key lacks the scope ${scope}.`, undefined, { scope });
  }
  if (key.organizationId !== null && (request.params as { orgId?: unknown }).orgId !== key.organizationId) {
    throw new AppError(
      403,
      'api_key_not_accepted',
      "An organisation's API key acts only on that organisation's calls.",
    );
  }
  const user = await users.findIdentity(key.userId);
  if (!user) throw invalidKey();
  if (user.disabled) throw new AppError(403, 'account_disabled', 'This account has been disabled.');
  return {
    userId: user.id,
    uid: user.firebase_uid,
    email: user.email,
    // Nothing addressed to an e-mail is handed to a key: it never proved the address.
    emailVerified: false,
    // A key is never an administrator, whoever made it: admin routes refuse keys above, and services see this too.
    isAdmin: false,
    termsAcceptedAt:
      user.current_terms_version !== null && (user.terms_version ?? 0) < user.current_terms_version
        ? null
        : user.terms_accepted_at,
    termsVersion: user.current_terms_version,
    apiKey: key,
  };
}

/** The caller of a route declared with auth 'user' or 'admin'; the hook guarantees it is set. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthenticated();
  return request.actor;
}
