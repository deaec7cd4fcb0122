import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Database } from './client.ts';

const migrationsDir = fileURLToPath(new URL('./migrations/', import.meta.url));
const NAME = /^\d{12}_[a-z0-9_]+\.sql$/;

export interface MigrationFile {
  name: string;
  checksum: string;
  sql: string;
}

export function readMigrations(dir = migrationsDir): MigrationFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((name) => {
      if (!NAME.test(name)) throw new Error(`Migration file name must be YYYYMMDDHHMM_name.sql: ${name}`);
      const text = readFileSync(join(dir, name), 'utf8');
      return { name, sql: text, checksum: createHash('sha256').update(text).digest('hex') };
    });
}

/**
 * Applies pending migrations in order, each in its own transaction, under an advisory lock so that
 * two processes starting against one PostgreSQL server do not race. The lock comes first: even
 * CREATE TABLE IF NOT EXISTS fails in one of two processes creating the table at the same moment (the API and the
 * caster starting together on an empty database). A changed, already-applied file is an error: history is never
 * rewritten.
 */
export async function migrate(db: Database, files = readMigrations()): Promise<string[]> {
  return db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(727274)`.execute(conn);
    try {
      await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
        name text PRIMARY KEY,
        checksum text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`.execute(conn);
      const applied = new Map(
        (await conn.selectFrom('schema_migrations').select(['name', 'checksum']).execute()).map((r) => [
          r.name,
          r.checksum,
        ]),
      );
      const ran: string[] = [];
      for (const file of files) {
        const known = applied.get(file.name);
        if (known !== undefined) {
          if (known !== file.checksum) throw new Error(`Migration ${file.name} was changed after it was applied`);
          continue;
        }
        await conn.transaction().execute(async (trx) => {
          await sql.raw(file.sql).execute(trx);
          await trx.insertInto('schema_migrations').values({ name: file.name, checksum: file.checksum }).execute();
        });
        ran.push(file.name);
      }
      return ran;
    } finally {
      await sql`SELECT pg_advisory_unlock(727274)`.execute(conn);
    }
  });
}
