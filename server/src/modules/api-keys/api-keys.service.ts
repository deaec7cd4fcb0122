import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { API_KEY_PREFIX, type ApiKey, type CreateApiKeyBody, type CreatedApiKey } from '@portal/contract';
import type { Actor, ApiKeyPrincipal } from '../../shared/actor.ts';
import { AppError, forbidden, notFound } from '../../shared/errors.ts';
import type { Auditor, AuditWho } from '../audit/index.ts';
import type { ApiKeysRepo } from './api-keys.repo.ts';

export interface ApiKeysPorts {
  /** The caller's role in an organisation, undefined when not a member (organisations module). */
  roleOf(orgId: string, userId: string): Promise<string | undefined>;
}

// 12 characters of the prefix (72 bits) make collisions between keys practically impossible; the secret after it is
// 256 bits.
const PREFIX_BYTES = 9;
const SECRET_BYTES = 32;
const KEY_SHAPE = /^gnk_[A-Za-z0-9_-]{12}_[A-Za-z0-9_-]{43}$/;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function newKey(): { key: string; prefix: string } {
  const prefix = `${API_KEY_PREFIX}${randomBytes(PREFIX_BYTES).toString('base64url')}`;
  return { prefix, key: `${prefix}_${randomBytes(SECRET_BYTES).toString('base64url')}` };
}

type Row = Awaited<ReturnType<ApiKeysRepo['listOfUser']>>[number];

const iso = (d: Date | null) => (d ? d.toISOString() : null);
function present(row: Row): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    organizationId: row.organization_id,
    createdAt: row.created_at.toISOString(),
    expiresAt: iso(row.expires_at),
    lastUsedAt: iso(row.last_used_at),
    lastUsedIp: row.last_used_ip,
    revokedAt: iso(row.revoked_at),
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;

export function createApiKeysService(deps: { repo: ApiKeysRepo; audit: Auditor; ports: ApiKeysPorts }) {
  const { repo, audit } = deps;

  async function requireManager(actor: Actor, orgId: string) {
    const role = await deps.ports.roleOf(orgId, actor.userId);
    if (!role) throw notFound('Organisation');
    if (role !== 'owner' && role !== 'admin') {
      throw forbidden("Only the organisation's owners and admins manage its API keys.");
    }
  }

  async function create(
    actor: Actor,
    organizationId: string | null,
    body: CreateApiKeyBody,
    who: AuditWho,
  ): Promise<CreatedApiKey> {
    const expiresAt = body.expiresAt ? new Date(body.expiresAt) : null;
    if (expiresAt && expiresAt.getTime() <= Date.now()) {
      throw new AppError(400, 'validation_failed', 'The expiry must be in the future.', 'expiresAt');
    }
    const { key, prefix } = newKey();
    const row = await repo.insert({
      userId: actor.userId,
      organizationId,
      name: body.name,
      prefix,
      keyHash: sha256(key),
      scopes: [...new Set(body.scopes)],
      expiresAt,
    });
    const created = present(row);
    await audit.record({ ...who, action: 'api_key.create', target: { type: 'api_key', id: row.id }, after: created });
    return { ...created, key };
  }

  async function revoke(id: string, owner: { userId: string } | { organizationId: string }, who: AuditWho) {
    const row = await repo.revoke(id, owner);
    if (!row) throw notFound('API key');
    await audit.record({ ...who, action: 'api_key.revoke', target: { type: 'api_key', id }, after: present(row) });
  }

  return {
    create: (actor: Actor, body: CreateApiKeyBody, who: AuditWho) => create(actor, null, body, who),
    list: async (actor: Actor) => (await repo.listOfUser(actor.userId)).map(present),
    revoke: (actor: Actor, id: string, who: AuditWho) => revoke(id, { userId: actor.userId }, who),

    async createForOrganization(actor: Actor, orgId: string, body: CreateApiKeyBody, who: AuditWho) {
      await requireManager(actor, orgId);
      return create(actor, orgId, body, who);
    },
    async listOfOrganization(actor: Actor, orgId: string) {
      await requireManager(actor, orgId);
      return (await repo.listOfOrganization(orgId)).map(present);
    },
    async revokeOfOrganization(actor: Actor, orgId: string, id: string, who: AuditWho) {
      await requireManager(actor, orgId);
      await revoke(id, { organizationId: orgId }, who);
    },

    /**
     * The key a bearer value is, or null when it is malformed, unknown, revoked or expired. The hash comparison takes
     * the same time whatever the bytes, though the prefix lookup already makes guessing hopeless.
     */
    async authenticate(bearer: string, ip: string): Promise<ApiKeyPrincipal | null> {
      if (!KEY_SHAPE.test(bearer)) return null;
      const prefix = bearer.slice(0, API_KEY_PREFIX.length + 12);
      const row = await repo.findUsable(prefix);
      if (!row) return null;
      if (!timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(sha256(bearer), 'hex'))) return null;
      await repo.touch(row.id, ip);
      return {
        id: row.id,
        prefix: row.prefix,
        userId: row.user_id,
        organizationId: row.organization_id,
        scopes: row.scopes,
      };
    },
  };
}
