import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { pgliteDialect } from '../src/db/pglite-dialect.ts';
import type { DB } from '../src/db/schema.ts';
import { startAuthEmulator } from '../src/dev/auth-emulator.ts';
import { TEST_POSTGRES_URL, waitUntilUnused } from './support/database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    authEmulatorHost: string;
  }
}

/**
 * Every migration, run once on an empty database: what each test file's database then starts as a copy of
 * (support/database.ts). Running them for every file was most of a small file's time. Returns the clean-up.
 */
async function migratedTemplate(project: TestProject): Promise<() => Promise<void>> {
  if (project.config.env.TEST_DATABASE === 'postgres') {
    const name = `portal_template_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(TEST_POSTGRES_URL);
    url.pathname = `/${name}`;
    const handle = await openDatabase({ databaseUrl: url.toString(), pgliteDataDir: 'memory://' });
    await migrate(handle.db);
    await handle.close();
    // CREATE DATABASE … TEMPLATE refuses a template anyone is still connected to.
    await waitUntilUnused(admin, name);
    project.provide('migratedTemplate', name);
    return async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    };
  }
  const client = await PGlite.create();
  const db = new Kysely<DB>({ dialect: pgliteDialect(client) });
  await migrate(db);
  const dir = mkdtempSync(join(tmpdir(), 'portal-template-'));
  const file = join(dir, 'pgdata.tar');
  writeFileSync(file, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
  await db.destroy();
  project.provide('migratedTemplate', file);
  return async () => rmSync(dir, { recursive: true, force: true });
}

/** One Auth Emulator for the whole server run; every test file makes its own users with unique e-mails. */
export default async function setup(project: TestProject) {
  // The emulator starts in a process of its own; the migrations run here meanwhile.
  const [started, migrated] = await Promise.allSettled([startAuthEmulator(), migratedTemplate(project)]);
  if (started.status === 'rejected' || migrated.status === 'rejected') {
    if (started.status === 'fulfilled') await started.value.stop();
    if (migrated.status === 'fulfilled') await migrated.value();
    throw started.status === 'rejected' ? started.reason : (migrated as PromiseRejectedResult).reason;
  }
  const emulator = started.value;
  const dropTemplate = migrated.value;
  project.provide('authEmulatorHost', emulator.host);
  return async () => {
    await emulator.stop();
    await dropTemplate();
  };
}
