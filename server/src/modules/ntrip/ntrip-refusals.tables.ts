import type { ColumnType, Generated } from 'kysely';

/** Row types of the caster's refused-attempts logs (migration 202611241000_ntrip_refusals.sql). */
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface NtripRefusalsTable {
  id: Generated<number>;
  account_id: string;
  reason: string;
  minute: Timestamp;
  count: number;
  first_at: Timestamp;
  last_at: Timestamp;
  mountpoint: string;
  remote_address: string;
  user_agent: string | null;
  ntrip_version: 1 | 2;
  /** The last attempt came over a TLS port (issue 38). */
  tls: boolean;
  detail: ColumnType<Record<string, unknown>, string | undefined, string>;
}

export interface NtripLoginFailuresTable {
  id: Generated<number>;
  remote_address: string;
  reason: string;
  minute: Timestamp;
  count: number;
  first_at: Timestamp;
  last_at: Timestamp;
  usernames: ColumnType<string[], string[] | undefined, string[]>;
  mountpoint: string;
  user_agent: string | null;
  ntrip_version: 1 | 2;
  /** The last attempt came over a TLS port (issue 38). */
  tls: boolean;
}

declare module '../../db/schema.ts' {
  interface DB {
    ntrip_refusals: NtripRefusalsTable;
    ntrip_login_failures: NtripLoginFailuresTable;
  }
}
