import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { pgliteDialect } from './pglite-dialect.ts';
import { lockPgliteDir } from './pglite-lock.ts';
import type { DB } from './schema.ts';

export type Database = Kysely<DB>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

// int8 and numeric arrive as strings from pg; counts and sums in this schema fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));

/**
 * `memory://` keeps PGlite in memory (tests); any other value is a data directory on disk. `pgliteDump`, a data
 * directory saved by PGlite's dumpDataDir, starts the in-memory database as a copy of it instead of an empty one.
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  pgliteDataDir: string;
  pgliteDump?: Blob;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection the server ends (a restart, a failover) is dropped from the pool and the next query opens a
    // new one; unhandled, the pool's error event would end the process, and with it every rover of a caster node.
    pool.on('error', (err) => console.warn(`PostgreSQL connection lost (${err.message}); reconnecting on next use`));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  const inMemory = options.pgliteDataDir === 'memory://';
  if (!inMemory) mkdirSync(options.pgliteDataDir, { recursive: true });
  const unlock = inMemory ? () => {} : lockPgliteDir(options.pgliteDataDir);
  let client: PGlite;
  try {
    client = await PGlite.create(inMemory ? undefined : options.pgliteDataDir, {
      parsers: { 20: (v: string) => Number.parseInt(v, 10) },
      ...(inMemory && options.pgliteDump && { loadDataDir: options.pgliteDump }),
    });
  } catch (err) {
    unlock();
    throw err;
  }
  const db = new Kysely<DB>({ dialect: pgliteDialect(client) });
  return {
    db,
    kind: 'pglite',
    close: async () => {
      try {
        await db.destroy();
      } finally {
        unlock();
      }
    },
  };
}
