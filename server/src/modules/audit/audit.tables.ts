import type { ColumnType, Generated } from 'kysely';

/** The audit log (migration 202611261300_audit_log.sql), merged into the shared `DB` beside the module that owns it. */
export interface AuditLogTable {
  id: Generated<number>;
  at: ColumnType<Date, Date | string | undefined, never>;
  actor_user_id: string | null;
  actor_email: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  /** JSON text in, parsed value out; never updated (the table refuses UPDATE). */
  before: ColumnType<unknown, string | null, never>;
  after: ColumnType<unknown, string | null, never>;
  ip: string | null;
}

declare module '../../db/schema.ts' {
  interface DB {
    audit_log: AuditLogTable;
  }
}
