import { z } from 'zod';
import { pageQueryFields, pageSchema } from './paging.ts';

export const teamSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.string(),
  url: z.string(),
});
export type Team = z.infer<typeof teamSchema>;

/**
 * `GET /user`: the organisations of the caller, the server-side admin flag (spec §3, §7) and when the caller accepted
 * the terms (ISO 8601), null if never: the SPA then asks before the app.
 */
export const userInfoSchema = z.object({
  teams: z.array(teamSchema),
  isAdmin: z.boolean(),
  termsAcceptedAt: z.string().nullable(),
  /** The latest published terms version (at /legal/terms), null when none was published; absent from older servers. */
  termsVersion: z.number().int().nullable().optional(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

/** `POST /user/terms`: only an explicit acceptance is a body; declining is logging out, never a call. */
/**
 * `POST /user/terms`. `version`: the published version the user was shown; when a newer one was published meanwhile
 * the answer is 409 terms_changed and nothing is recorded. Without it, the version current at the call.
 */
export const acceptTermsBodySchema = z.strictObject({
  accepted: z.literal(true),
  version: z.number().int().min(1).optional(),
});
export type AcceptTermsBody = z.infer<typeof acceptTermsBodySchema>;

/** `POST /user/terms` answers when the caller accepted: now, or the earlier moment when already accepted. */
export const termsAcceptanceSchema = z.object({ termsAcceptedAt: z.string() });
export type TermsAcceptance = z.infer<typeof termsAcceptanceSchema>;

/** Profile photos uploaded to the portal (POST /user/photo, raw image body): types and size limit. */
export const USER_PHOTO_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type UserPhotoType = (typeof USER_PHOTO_TYPES)[number];
export const USER_PHOTO_MAX_BYTES = 512 * 1024;

/** `POST /user/photo`: the address the photo is served at, to store as the Firebase photoURL. */
export const userPhotoResponseSchema = z.object({ photoURL: z.string() });
export type UserPhotoResponse = z.infer<typeof userPhotoResponseSchema>;

/** `DELETE /user` needs a sign-in at most this old (Firebase auth_time), else 403 recent_login_required. */
export const ACCOUNT_DELETION_MAX_AUTH_AGE_SECONDS = 5 * 60;

export const adminUsersQuerySchema = z.object({
  search: z.string().trim().max(100).optional(),
  ...pageQueryFields({ defaultLimit: 50, maxLimit: 200 }),
});
export type AdminUsersQuery = z.infer<typeof adminUsersQuerySchema>;

export const adminUserSchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  displayName: z.string().nullable(),
  isAdmin: z.boolean(),
  disabled: z.boolean(),
  createdAt: z.string(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUsersPageSchema = pageSchema(adminUserSchema);
export type AdminUsersPage = z.infer<typeof adminUsersPageSchema>;

export const adminUserParamsSchema = z.object({ userId: z.uuid() });

export const adminUserPatchSchema = z
  .object({ isAdmin: z.boolean().optional(), disabled: z.boolean().optional() })
  .refine((b) => b.isAdmin !== undefined || b.disabled !== undefined, 'isAdmin or disabled is required');
export type AdminUserPatch = z.infer<typeof adminUserPatchSchema>;
