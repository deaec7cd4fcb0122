import type { ColumnType, Generated } from 'kysely';

/**
 * Row types of the RINEX tables (migration 202611241400_rinex_jobs.sql), merged into the shared `DB` interface
 * beside the module that owns them.
 */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type RinexJobStatusColumn = 'queued' | 'running' | 'done' | 'failed' | 'expired';
export type RinexChargeColumn = 'tokens' | 'plan' | 'free' | 'admin';

/** One archived hour a job converts: the mountpoint it was archived under and its start. */
export interface JobHour {
  mountpoint: string;
  hour: string;
}

export interface RinexJobsTable {
  id: Generated<string>;
  user_id: string;
  organization_id: string | null;
  created_by_admin: string | null;
  station_id: string | null;
  mountpoint: string;
  network_name: string;
  window_start: Timestamp;
  window_end: Timestamp;
  interval_seconds: number;
  systems: string;
  hours: ColumnType<JobHour[], string, string>;
  hours_total: number;
  hours_with_data: number;
  charge: RinexChargeColumn;
  tokens_charged: Generated<number>;
  tokens_refunded: Generated<number>;
  status: Generated<RinexJobStatusColumn>;
  progress: Generated<number>;
  heartbeat_at: NullableTimestamp;
  attempts: Generated<number>;
  error_code: string | null;
  error_message: string | null;
  result_name: string | null;
  result_bytes: ColumnType<number | null, number | null | undefined, number | null>;
  result_epochs: number | null;
  result_files: ColumnType<string[] | null, string[] | null | undefined, string[] | null>;
  created_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  expires_at: NullableTimestamp;
}

declare module '../../db/schema.ts' {
  interface DB {
    rinex_jobs: RinexJobsTable;
  }
  interface NetworksTable {
    /** Tokens per station-hour of RINEX; null: the default from token_price_per_day. */
    rinex_price_per_hour: ColumnType<number | null, number | null | undefined, number | null>;
  }
}
