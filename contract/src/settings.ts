import { z } from 'zod';
import { MAX_MAX_CONNECTIONS, MAX_NTRIP_ACCOUNTS_PER_USER, MIN_MAX_CONNECTIONS } from './ntrip-accounts.ts';
import { MAX_ORGANIZATIONS_PER_USER } from './organizations.ts';

/**
 * Portal-wide defaults the operator changes at /admin/settings/account-management (docs/adr/0028). Each key is
 * enforced by the code named beside it, inside the transaction that spends it; a key missing from the database
 * has the default below, which is what the portal did before the setting existed.
 */
export const SIGN_UP_MODES = ['open', 'invite-only'] as const;
export const signUpModeSchema = z.enum(SIGN_UP_MODES);
export type SignUpMode = z.infer<typeof signUpModeSchema>;

export const portalSettingsSchema = z.strictObject({
  /**
   * Who may become a portal user (the first authenticated call creates the user, docs/adr/0033): anyone, or only
   * someone an organisation invited (a verified address with an open invite, or the holder of an open invite link).
   */
  signUp: signUpModeSchema,
  /** Organisations one user may own (organisation creation). */
  organizationsPerUser: z.number().int().min(0).max(100),
  /** Days an organisation invite can be accepted after it was sent; null: invites do not expire. */
  inviteLifetimeDays: z.number().int().min(1).max(365).nullable(),
  /** Concurrent rover connections a newly created NTRIP account gets (an admin may change it per account later). */
  defaultConnectionsPerAccount: z.number().int().min(MIN_MAX_CONNECTIONS).max(MAX_MAX_CONNECTIONS),
  /** NTRIP accounts (not deleted) one user may have (NTRIP account creation). */
  ntripAccountsPerUser: z.number().int().min(1).max(1000),
  /** Hours the caster keeps serving a network after a grant's end (subscription period, token days); 0: none. */
  accessGraceHours: z.number().int().min(0).max(720),
});
export type PortalSettings = z.infer<typeof portalSettingsSchema>;
export type PortalSettingKey = keyof PortalSettings;
export const PORTAL_SETTING_KEYS = Object.keys(portalSettingsSchema.shape) as PortalSettingKey[];

export const PORTAL_SETTINGS_DEFAULTS: PortalSettings = {
  signUp: 'open',
  organizationsPerUser: MAX_ORGANIZATIONS_PER_USER,
  inviteLifetimeDays: null,
  defaultConnectionsPerAccount: 1,
  ntripAccountsPerUser: MAX_NTRIP_ACCOUNTS_PER_USER,
  accessGraceHours: 0,
};

/** `PATCH /admin/settings`: any subset of the keys; unknown keys are refused (400 with the key as field). */
export const portalSettingsPatchSchema = portalSettingsSchema.partial();
export type PortalSettingsPatch = z.infer<typeof portalSettingsPatchSchema>;

/** `GET`/`PATCH /admin/settings`: the values in force, and when and by whom each stored one was last changed. */
export const adminPortalSettingsSchema = z.object({
  values: portalSettingsSchema,
  changes: z.array(z.object({ key: z.string(), updatedAt: z.string(), updatedBy: z.string().nullable() })),
});
export type AdminPortalSettings = z.infer<typeof adminPortalSettingsSchema>;

/** `GET /sign-up` (public): whether the sign-up form is open to anyone, so the form can say when it is not. */
export const signUpPolicySchema = z.object({ signUp: signUpModeSchema });
export type SignUpPolicy = z.infer<typeof signUpPolicySchema>;
