import type { Config } from '../config.ts';
import { type DatabaseHandle, openDatabase } from '../db/client.ts';
import { PgliteInUseError } from '../db/pglite-lock.ts';

/** The configured database for an operator command; a PGlite directory another process owns ends it with why. */
export async function openOperatorDatabase(config: Config): Promise<DatabaseHandle> {
  try {
    return await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDataDir: config.PGLITE_DATA_DIR });
  } catch (err) {
    if (!(err instanceof PgliteInUseError)) throw err;
    console.error(err.message);
    process.exit(1);
  }
}
