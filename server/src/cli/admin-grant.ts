import { loadConfig } from '../config.ts';
import { migrate } from '../db/migrate.ts';
import { createUsersRepo } from '../modules/users/users.repo.ts';
import { openOperatorDatabase } from './database.ts';

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
const config = loadConfig();
const handle = await openOperatorDatabase(config);
try {
  await migrate(handle.db);
  const users = createUsersRepo(handle.db);
  const user = await users.findByEmail(email);
  if (!user) {
    console.error(`No user with e-mail ${email}. They must log in to the portal once first.`);
    process.exitCode = 1;
  } else {
    const isAdmin = !args.includes('--revoke');
    await users.setAdmin(user.id, isAdmin);
    console.log(`${email} is ${isAdmin ? 'now an admin' : 'no longer an admin'}.`);
  }
} finally {
  await handle.close();
}
