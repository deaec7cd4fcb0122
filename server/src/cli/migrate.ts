import { loadConfig } from '../config.ts';
import { runOperator } from './database.ts';

/** `npm run db:migrate`: applies pending migrations to the configured database (or the running portal's) and exits. */
await runOperator(loadConfig(), { command: 'migrate' });
