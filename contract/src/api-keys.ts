import { z } from 'zod';

/**
 * What an API key may do (issue 37). A route that takes keys names one of these; a key without it is answered 403
 * `api_key_scope` naming the scope. Admin routes take no key whatever its scopes.
 */
export const apiKeyScopes = [
  'ntrip-accounts:read',
  'ntrip-accounts:write',
  'activations:write',
  'usage:read',
  'rinex:read',
  'rinex:write',
  'billing:read',
] as const;
export const apiKeyScopeSchema = z.enum(apiKeyScopes);
export type ApiKeyScope = z.infer<typeof apiKeyScopeSchema>;

/** Every key starts with this, so a bearer value is known to be a key (not an ID token) without a lookup. */
export const API_KEY_PREFIX = 'gnk_';

export const createApiKeyBodySchema = z.object({
  name: z.string().trim().min(1).max(80),
  scopes: z.array(apiKeyScopeSchema).min(1).max(apiKeyScopes.length),
  /** When the key stops working; never when omitted. */
  expiresAt: z.iso.datetime({ offset: true }).optional(),
});
export type CreateApiKeyBody = z.infer<typeof createApiKeyBodySchema>;

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The key's first characters, shown in lists and logs to tell keys apart; not enough to use it. */
  prefix: z.string(),
  scopes: z.array(apiKeyScopeSchema),
  organizationId: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** The answer to a new key: the only time the whole key is shown. */
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const apiKeyListSchema = z.object({ items: z.array(apiKeySchema) });
export const apiKeyParamsSchema = z.object({ id: z.uuid() });
export const organizationApiKeyParamsSchema = z.object({ orgId: z.uuid(), id: z.uuid() });

export const apiKeyErrorCodes = [
  // the key is unknown, revoked or expired: 401 at once
  'api_key_invalid',
  // the key lacks the scope the route needs (named in `scope`)
  'api_key_scope',
  // the route takes no API key (admin routes, account settings), or not this organisation's key
  'api_key_not_accepted',
  // Idempotency-Key reused with a different request
  'idempotency_key_reused',
  // Idempotency-Key reused while its first request is still being answered
  'idempotency_key_in_progress',
] as const;
export type ApiKeyErrorCode = (typeof apiKeyErrorCodes)[number];

/** The request header that makes a creating or spending POST safe to repeat (kept 24 h). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const idempotencyKeySchema = z.string().min(1).max(255);
