import { type AuditQuery, auditRangeEnd, auditRangeStart } from '@portal/contract';
import { type Insertable, sql } from 'kysely';
import type { Database } from '../../db/client.ts';
import type { AuditLogTable } from './audit.tables.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const likeEscaped = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The only place that touches audit_log. It has no update or delete: the table refuses both anyway. */
export function createAuditRepo(db: Database) {
  return {
    async insert(values: Insertable<AuditLogTable>, trx: Database = db): Promise<void> {
      await trx.insertInto('audit_log').values(values).execute();
    },

    async list(q: AuditQuery) {
      let query = db.selectFrom('audit_log');
      if (q.actor) {
        const actor = q.actor;
        query = UUID.test(actor)
          ? query.where('actor_user_id', '=', actor)
          : query.where(sql<boolean>`lower(actor_email) LIKE ${`%${likeEscaped(actor.toLowerCase())}%`}`);
      }
      if (q.action) {
        query = q.action.endsWith('.')
          ? query.where('action', 'like', `${likeEscaped(q.action)}%`)
          : query.where('action', '=', q.action);
      }
      if (q.targetType) query = query.where('target_type', '=', q.targetType);
      if (q.targetId) query = query.where('target_id', '=', q.targetId);
      if (q.from) query = query.where('at', '>=', auditRangeStart(q.from));
      if (q.to) query = query.where('at', '<=', auditRangeEnd(q.to));
      const [items, total] = await Promise.all([
        query.selectAll().orderBy('at', 'desc').orderBy('id', 'desc').limit(q.limit).offset(q.offset).execute(),
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { items, total: Number(total.n) };
    },
  };
}

export type AuditRepo = ReturnType<typeof createAuditRepo>;
