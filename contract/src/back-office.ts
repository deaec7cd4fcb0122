import { z } from 'zod';
import { adminSubscriptionSchema, ledgerEntrySchema, subscriptionSchema } from './billing.ts';
import { billingDetailsSchema, invoiceSummarySchema } from './invoicing.ts';
import { ntripAccountSchema } from './ntrip-accounts.ts';
import { memberSchema, orgInviteSchema } from './organizations.ts';
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
  /** Their invoices and credit notes, newest first. */
  invoices: z.array(invoiceSummarySchema),
  /** Their own billing details (null: none given); an admin confirms the VAT number here when no registry can. */
  billingDetails: billingDetailsSchema.nullable(),
});
export type AdminCustomer = z.infer<typeof adminCustomerSchema>;

/** How many ledger entries the customer page shows. */
export const ADMIN_CUSTOMER_LEDGER_ENTRIES = 50;

/** The organisation itself, as the back office shows it; also the answer of `PATCH /admin/organizations/:orgId`. */
export const adminOrganizationSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  /** Set while an operator has it disabled. */
  disabledAt: z.string().nullable(),
});
export type AdminOrganizationSummary = z.infer<typeof adminOrganizationSummarySchema>;

/** `GET /admin/organizations/:orgId`: one organisation in the back office (issue 20). */
export const adminOrganizationDetailSchema = z.object({
  organization: adminOrganizationSummarySchema,
  members: z.array(memberSchema),
  invites: z.array(orgInviteSchema),
  subscriptions: z.array(adminSubscriptionSchema),
  /** The organisation's NTRIP accounts, each with the member who uses it; sessions are fetched per account. */
  ntripAccounts: z.array(ntripAccountSchema),
});
export type AdminOrganizationDetail = z.infer<typeof adminOrganizationDetailSchema>;

export const adminOrganizationPatchSchema = z.object({ disabled: z.boolean() });
export type AdminOrganizationPatch = z.infer<typeof adminOrganizationPatchSchema>;
