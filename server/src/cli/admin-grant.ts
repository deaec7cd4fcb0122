import { loadConfig } from '../config.ts';
import { runOperator } from './database.ts';

/**
 * `npm run admin:grant -- <email> [--revoke]`: the admin flag lives only on the server, so this is the way to set it.
 * The user must have logged in once, which creates the users row.
 */
const args = process.argv.slice(2);
const email = args.find((a) => !a.startsWith('--'));
if (!email) {
  console.error('Usage: npm run admin:grant -- <email> [--revoke]');
  process.exit(2);
}
await runOperator(loadConfig(), { command: 'admin-grant', email, revoke: args.includes('--revoke') });
