import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';

/** The PostgreSQL server the suite creates its throwaway databases on (the machine's own by default). */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type TestDatabaseKind = 'pglite' | 'postgres';

export function testDatabaseKind(): TestDatabaseKind {
  return process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'pglite';
}

/**
 * A fresh, migrated database for one test file: PGlite in memory, or a new database on the PostgreSQL
 * server that is dropped again on close.
 */
export async function createTestDatabase(kind = testDatabaseKind()): Promise<DatabaseHandle & { url?: string }> {
  if (kind === 'pglite') {
    const handle = await openDatabase({ pgliteDataDir: 'memory://' });
    await migrate(handle.db);
    return handle;
  }
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
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
      for (let attempt = 0; attempt < 40; attempt++) {
        const { rows } = await dropper.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [
          name,
        ]);
        if (rows[0]?.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
