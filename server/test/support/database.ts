import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';

/** The PostgreSQL server the suite creates its throwaway databases on (the machine's own by default). */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type TestDatabaseKind = 'pglite' | 'postgres';

export function testDatabaseKind(): TestDatabaseKind {
  return process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';
}

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * The database every migration was run on once for this run (global-setup.ts): for PGlite the file its data
     * directory was dumped to, for PostgreSQL the name of the database to copy.
     */
    migratedTemplate: string;
  }
}

/** Until the connections of a closed pool have gone, PostgreSQL neither drops nor copies their database. */
export async function waitUntilUnused(admin: pg.Client, database: string): Promise<void> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const { rows } = await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [
      database,
    ]);
    if (rows[0]?.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A fresh, migrated database for one test file: PGlite in memory, or a new database on the PostgreSQL
 * server that is dropped again on close. Both start as a copy of the run's migrated template where there is one
 * (running the migrations again would find nothing to do), else empty and migrated here.
 */
export async function createTestDatabase(kind = testDatabaseKind()): Promise<DatabaseHandle & { url?: string }> {
  const template = kind === testDatabaseKind() ? inject('migratedTemplate') : undefined;
  if (kind === 'pglite') {
    const handle = await openDatabase({
      pgliteDataDir: 'memory://',
      ...(template && { pgliteDump: new Blob([readFileSync(template)]) }),
    });
    await migrate(handle.db);
    return handle;
  }
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), pgliteDataDir: 'memory://' });
  await migrate(handle.db);
  return {
    ...handle,
    /** For a test that hands the database to code opening its own connection (a CLI). */
    url: url.toString(),
    close: async () => {
      await handle.close();
      const dropper = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await dropper.connect();
      // pg's pool.end() resolves before its sockets have closed; a FORCE drop at that moment kills them and the
      // FATAL arrives on a client nobody listens to any more (an uncaught error). Wait for them to go first.
      await waitUntilUnused(dropper, name);
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
