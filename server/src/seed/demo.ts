import type { Database } from '../db/client.ts';
import { seedDemoProducts } from '../modules/billing/index.ts';
import { seedDemoCatalogue } from '../modules/catalogue/catalogue.seed.ts';
import { seedDemoDocuments } from '../modules/documents/index.ts';
import { seedDemoSeller } from '../modules/invoicing/index.ts';
import { createUsersRepo } from '../modules/users/users.repo.ts';
import { emulatorAuth } from './reconcile-emulator.ts';

export const DEMO_ACCOUNTS = [
  { email: 'admin@demo.gnss-portal.test', password: 'demo-admin-2026', displayName: 'Demo Admin', isAdmin: true },
  { email: 'surveyor@demo.gnss-portal.test', password: 'demo-user-2026', displayName: 'Demo Surveyor', isAdmin: false },
] as const;

/** What reconcileWithAuthEmulator sets on a demo account it has to make again. */
export const DEMO_PASSWORDS: ReadonlyMap<string, string> = new Map(DEMO_ACCOUNTS.map((a) => [a.email, a.password]));

/**
 * Idempotent demo data for `npm start`: the demo accounts in the Auth Emulator with their users rows, the
 * network catalogue, the products, the seller with the EU's VAT rates, and the legal documents. Only ever run against the emulator; the
 * config refuses it otherwise.
 * Runs after reconcileWithAuthEmulator, which gives existing rows their accounts back.
 */
export async function seedDemo(
  db: Database,
  options: { projectId: string; feedSecretKey: string },
): Promise<typeof DEMO_ACCOUNTS> {
  const auth = emulatorAuth(options.projectId);
  const users = createUsersRepo(db);
  // Before the accounts accept: they accept the version that is published.
  await seedDemoDocuments(db);
  for (const account of DEMO_ACCOUNTS) {
    const existing = await auth.getUserByEmail(account.email).catch(() => undefined);
    const record =
      existing ??
      (await auth.createUser({ email: account.email, password: account.password, displayName: account.displayName }));
    const row = await users.upsertFromIdentity({ uid: record.uid, email: account.email, name: account.displayName });
    if (account.isAdmin) await users.setAdmin(row.id, true);
    // Rows created after the terms migration start without an acceptance; the demo accounts must not be asked.
    await users.acceptTerms(row.id);
  }
  await seedDemoCatalogue(db, { feedSecretKey: options.feedSecretKey });
  await seedDemoProducts(db);
  await seedDemoSeller(db);
  return DEMO_ACCOUNTS;
}
