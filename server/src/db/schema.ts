import type { ColumnType, Generated } from 'kysely';

/** Row types of the tables the migrations create. Each module adds its tables here when it adds a migration. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface SchemaMigrationsTable {
  name: string;
  checksum: string;
  applied_at: Generated<Date>;
}

export interface UsersTable {
  id: Generated<string>;
  firebase_uid: string;
  email: string | null;
  display_name: string | null;
  photo_url: string | null;
  is_admin: Generated<boolean>;
  disabled: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AppMetaTable {
  id: Generated<boolean>;
  gtag_id: Generated<string>;
  updated_at: Timestamp;
  updated_by: string | null;
}

export interface PageMetaTable {
  page: string;
  title: string;
  description: string;
  updated_at: Timestamp;
  updated_by: string | null;
}

export interface DB {
  schema_migrations: SchemaMigrationsTable;
  users: UsersTable;
  app_meta: AppMetaTable;
  page_meta: PageMetaTable;
}
