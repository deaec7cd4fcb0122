import { type App, getApps, initializeApp } from 'firebase-admin/app';
import { type Auth, getAuth, type UserRecord } from 'firebase-admin/auth';
import { sql } from 'kysely';
import type { Database } from '../db/client.ts';

/** firebase-admin for the Auth Emulator named in FIREBASE_AUTH_EMULATOR_HOST (seeding and reconciling only). */
export function emulatorAuth(projectId: string): Auth {
  const name = `${projectId}-seed`;
  const app: App = getApps().find((a) => a.name === name) ?? initializeApp({ projectId }, name);
  return getAuth(app);
}

async function allAccounts(auth: Auth): Promise<UserRecord[]> {
  const accounts: UserRecord[] = [];
  let pageToken: string | undefined;
  do {
    const page = await auth.listUsers(1000, pageToken);
    accounts.push(...page.users);
    pageToken = page.pageToken;
  } while (pageToken);
  return accounts;
}

/**
 * Emulator mode only: brings the database and the Auth Emulator back together after the emulator lost accounts or
 * got another emulator's (the e-mails are unique in `users`, so a demo account created again under a new uid
 * stopped the start with a duplicate key). Every users row with an e-mail ends up with an emulator account under
 * its uid, and the row, with everything that points at it, stays the person's:
 * - the emulator knows the row's uid: nothing to do;
 * - the emulator has the row's e-mail under another uid (the person signed up again): the row takes that uid, so
 *   the password they use now opens their old data;
 * - the emulator has neither: the account is made again under the row's uid, with the password in `passwords`
 *   (the demo accounts) or with none and a printed link to set one.
 * Answers the lines to print, one per change.
 */
export async function reconcileWithAuthEmulator(
  db: Database,
  options: { projectId: string; passwords?: ReadonlyMap<string, string> },
): Promise<string[]> {
  const auth = emulatorAuth(options.projectId);
  const accounts = await allAccounts(auth);
  const uids = new Set(accounts.map((a) => a.uid));
  const byEmail = new Map(accounts.filter((a) => a.email).map((a) => [a.email?.toLowerCase(), a]));
  const rows = await db
    .selectFrom('users')
    .select(['id', 'firebase_uid', 'email', 'display_name'])
    .where('email', 'is not', null)
    .execute();
  const rowUids = new Set(rows.map((r) => r.firebase_uid));
  const lines: string[] = [];
  for (const row of rows) {
    const email = row.email as string;
    if (uids.has(row.firebase_uid)) continue;
    const account = byEmail.get(email.toLowerCase());
    if (account) {
      if (rowUids.has(account.uid)) {
        lines.push(
          `Auth Emulator: ${email} belongs to uid ${account.uid}, which another portal user has; left as it is`,
        );
        continue;
      }
      await db
        .updateTable('users')
        .set({ firebase_uid: account.uid, updated_at: sql`now()` })
        .where('id', '=', row.id)
        .execute();
      rowUids.add(account.uid);
      lines.push(`Auth Emulator: ${email} signed up again (uid ${account.uid}); the portal user keeps its data`);
      continue;
    }
    const password = options.passwords?.get(email.toLowerCase());
    await auth.createUser({
      uid: row.firebase_uid,
      email,
      ...(row.display_name && { displayName: row.display_name }),
      ...(password && { password }),
    });
    uids.add(row.firebase_uid);
    if (password) {
      lines.push(`Auth Emulator: ${email} was missing; made again with its demo password`);
    } else {
      const link = await auth.generatePasswordResetLink(email);
      lines.push(
        `Auth Emulator: ${email} was missing; made again without a password. Set one: ${link}&newPassword=NEW_PASSWORD`,
      );
    }
  }
  return lines;
}
