import { z } from 'zod';
import { ledgerEntrySchema, subscriptionSchema } from './billing.ts';
import { ntripAccountSchema } from './ntrip-accounts.ts';
import { adminUserSchema, teamSchema } from './user.ts';

/** `GET /admin/users/:userId`: one customer in the back office (issue 20), read from the modules that own each part. */
export const adminCustomerSchema = z.object({
  user: adminUserSchema.extend({ termsAcceptedAt: z.string().nullable() }),
  tokenAmount: z.number().int(),
  /** The newest ledger entries, newest first. */
  ledger: z.array(ledgerEntrySchema),
  subscriptions: z.array(subscriptionSchema),
  organizations: z.array(teamSchema),
  /** Their NTRIP accounts as they see them, with rovers connected now; sessions are fetched per account. */
  ntripAccounts: z.array(ntripAccountSchema),
});
export type AdminCustomer = z.infer<typeof adminCustomerSchema>;

/** How many ledger entries the customer page shows. */
export const ADMIN_CUSTOMER_LEDGER_ENTRIES = 50;
