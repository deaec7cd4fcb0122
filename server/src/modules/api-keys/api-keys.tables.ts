import type { ApiKeyScope } from '@portal/contract';
import type { ColumnType, Generated } from 'kysely';

/** Row types of migration 202611281613_api_keys.sql, merged into the shared DB beside their module. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface ApiKeysTable {
  id: Generated<string>;
  user_id: string;
  organization_id: string | null;
  name: string;
  prefix: string;
  key_hash: string;
  /** JSON text in, parsed array out. */
  scopes: ColumnType<ApiKeyScope[], string, string>;
  created_at: Timestamp;
  expires_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  last_used_at: NullableTimestamp;
  last_used_ip: string | null;
}

export interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  request_hash: string;
  status_code: number | null;
  response_body: string | null;
  response_type: string | null;
  created_at: Timestamp;
}

declare module '../../db/schema.ts' {
  interface DB {
    api_keys: ApiKeysTable;
    idempotency_keys: IdempotencyKeysTable;
  }
}
