import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { Actor } from '../../shared/actor.ts';
import { createAuditRepo } from './audit.repo.ts';

export interface AuditTarget {
  /** What kind of record: 'user', 'ntrip_account', 'subscription', 'product', 'network'… */
  type: string;
  id?: string | null;
}

export interface AuditWho {
  actor: Pick<Actor, 'userId' | 'email'> | null;
  /** The client's address as the API sees it (behind TRUST_PROXY, the forwarded one). */
  ip: string | null;
}

export interface AuditRecord extends AuditWho {
  /** `<area>.<verb>`, e.g. 'tokens.grant', 'user.update', 'ntrip_account.create'. */
  action: string;
  target: AuditTarget;
  before?: unknown;
  after?: unknown;
}

/** Who is calling and from where, to spread into an audit record. */
export const auditWho = (request: FastifyRequest): AuditWho => ({ actor: request.actor, ip: request.ip ?? null });

// A secret must never reach the log, whatever a caller passes as before or after.
const SECRET_KEY = /password|secret|hash|api_?key|private/i;

function redacted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redacted);
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? '[redacted]' : redacted(v)]),
    );
  }
  return value;
}

const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(redacted(value)));

/**
 * Appends one entry to the audit log. Pass the transaction that makes the change, so the entry and the change are
 * committed together or not at all.
 */
export async function recordAudit(trx: Database, entry: AuditRecord): Promise<void> {
  await createAuditRepo(trx).insert({
    actor_user_id: entry.actor?.userId ?? null,
    actor_email: entry.actor?.email ?? null,
    action: entry.action,
    target_type: entry.target.type,
    target_id: entry.target.id ?? null,
    before: json(entry.before),
    after: json(entry.after),
    ip: entry.ip,
  });
}

export interface AuditedWrite<T> {
  action: string;
  target: AuditTarget | ((result: T) => AuditTarget);
  /** Reads the record as it is before the change; a failed read is logged as null. */
  before?: () => Promise<unknown>;
  /** The record after the change; the call's result when omitted. */
  after?: (result: T) => unknown | Promise<unknown>;
}

/**
 * The audit log as the routes reach it (`app.audit`). `around` serves writes whose module has no transaction to
 * share: the entry is written right after the change commits, so a crash between the two loses that one entry
 * (docs/adr/0027-back-office.md); writes that own a transaction call `recordAudit(trx, …)` inside it instead.
 */
export function createAuditor(db: Database) {
  return {
    record: (entry: AuditRecord, trx: Database = db) => recordAudit(trx, entry),
    async around<T>(request: FastifyRequest, what: AuditedWrite<T>, run: () => Promise<T>): Promise<T> {
      const before = what.before ? await what.before().catch(() => null) : undefined;
      const result = await run();
      const after = what.after ? await what.after(result) : result;
      await recordAudit(db, {
        ...auditWho(request),
        action: what.action,
        target: typeof what.target === 'function' ? what.target(result) : what.target,
        before: before ?? null,
        after: after ?? null,
      });
      return result;
    },
  };
}

export type Auditor = ReturnType<typeof createAuditor>;

declare module 'fastify' {
  interface FastifyInstance {
    audit: Auditor;
  }
}
