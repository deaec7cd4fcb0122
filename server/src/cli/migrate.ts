import { loadConfig } from '../config.ts';
import { migrate } from '../db/migrate.ts';
import { openOperatorDatabase } from './database.ts';

/** `npm run db:migrate`: applies pending migrations to the configured database and exits. */
const config = loadConfig();
const handle = await openOperatorDatabase(config);
try {
  const applied = await migrate(handle.db);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
} finally {
  await handle.close();
}
