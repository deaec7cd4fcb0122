import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../src/db/client.ts';
import { migrate, readMigrations } from '../src/db/migrate.ts';
import { createTestDatabase, TEST_POSTGRES_URL, testDatabaseKind } from './support/database.ts';

// Each test builds a fresh database from every migration: seconds on an idle machine, and past the default limit
// on a loaded two-core one (seen in a full server run beside other suites).
describe(`migrations on ${testDatabaseKind()}`, { timeout: 60_000 }, () => {
  let handle: DatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
  });

  it('records every migration file with its checksum and applies nothing twice', async () => {
    handle = await createTestDatabase();
    const files = readMigrations();
    const rows = await handle.db.selectFrom('schema_migrations').select(['name', 'checksum']).orderBy('name').execute();
    expect(rows).toEqual(files.map((f) => ({ name: f.name, checksum: f.checksum })));
    expect(await migrate(handle.db)).toEqual([]);
  });

  it('refuses to start when an applied migration was edited', async () => {
    handle = await createTestDatabase();
    const [first, ...rest] = readMigrations();
    if (!first) throw new Error('no migrations');
    await expect(
      migrate(handle.db, [{ ...first, sql: `${first.sql}\n-- edited`, checksum: 'x' }, ...rest]),
    ).rejects.toThrow(/was changed after it was applied/);
  });

  it('rolls back a failing migration as a whole', async () => {
    handle = await createTestDatabase();
    const broken = {
      name: '209901010000_broken.sql',
      checksum: 'c',
      sql: 'CREATE TABLE half_done (id int); SELECT 1/0;',
    };
    await expect(migrate(handle.db, [...readMigrations(), broken])).rejects.toThrow();
    const exists = await sql<{ t: string | null }>`SELECT to_regclass('half_done')::text AS t`.execute(handle.db);
    expect(exists.rows[0]?.t).toBeNull();
    const recorded = await handle.db
      .selectFrom('schema_migrations')
      .select('name')
      .where('name', '=', broken.name)
      .execute();
    expect(recorded).toEqual([]);
  });
});

describe('migrations of processes starting together', { timeout: 120_000 }, () => {
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };

  // Production starts the API and the caster as two processes on one empty database at the same moment.
  it.skipIf(testDatabaseKind() !== 'postgres')('lets two processes migrate one empty database at once', async () => {
    for (let round = 0; round < 5; round++) {
      const name = `portal_test_${randomBytes(6).toString('hex')}`;
      await admin(`CREATE DATABASE ${name}`);
      const url = new URL(TEST_POSTGRES_URL);
      url.pathname = `/${name}`;
      const handles = await Promise.all(
        [1, 2].map(() => openDatabase({ databaseUrl: url.toString(), pgliteDataDir: 'memory://' })),
      );
      try {
        const [a, b] = await Promise.all(handles.map((h) => migrate(h.db)));
        expect([...(a ?? []), ...(b ?? [])].sort()).toEqual(readMigrations().map((f) => f.name));
      } finally {
        await Promise.all(handles.map((h) => h.close()));
        await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }
    }
  });
});
