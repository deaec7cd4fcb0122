import type { Config } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { PgliteInUseError } from '../db/pglite-lock.ts';
import { askRunningPortal } from './control-socket.ts';
import { type OperatorAnswer, type OperatorRequest, runOperatorCommand } from './operator-commands.ts';

/**
 * Runs an operator command on the configured database, or, when the running portal owns the PGlite directory,
 * through the portal's control socket; prints its answer and sets the exit code.
 */
export async function runOperator(config: Config, request: OperatorRequest): Promise<void> {
  let answer: OperatorAnswer;
  try {
    const handle = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDataDir: config.PGLITE_DATA_DIR });
    try {
      answer = await runOperatorCommand(handle.db, config, request);
    } finally {
      await handle.close();
    }
  } catch (err) {
    if (!(err instanceof PgliteInUseError)) throw err;
    const viaPortal = await askRunningPortal(config.PGLITE_DATA_DIR, request);
    if (!viaPortal) {
      console.error(err.message);
      process.exit(1);
    }
    answer = viaPortal;
  }
  for (const line of answer.out) console.log(line);
  for (const line of answer.err) console.error(line);
  if (answer.err.length) process.exitCode = 1;
}
