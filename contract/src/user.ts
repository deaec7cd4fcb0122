import { z } from 'zod';

export const teamSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.string(),
  url: z.string(),
});
export type Team = z.infer<typeof teamSchema>;

/** `GET /user`: the organisations of the caller and the server-side admin flag (spec §3, §7). */
export const userInfoSchema = z.object({
  teams: z.array(teamSchema),
  isAdmin: z.boolean(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

/** Profile photos uploaded to the portal (POST /user/photo, raw image body): types and size limit. */
export const USER_PHOTO_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type UserPhotoType = (typeof USER_PHOTO_TYPES)[number];
export const USER_PHOTO_MAX_BYTES = 512 * 1024;

/** `POST /user/photo`: the address the photo is served at, to store as the Firebase photoURL. */
export const userPhotoResponseSchema = z.object({ photoURL: z.string() });
export type UserPhotoResponse = z.infer<typeof userPhotoResponseSchema>;

/** `DELETE /user` needs a sign-in at most this old (Firebase auth_time), else 403 recent_login_required. */
export const ACCOUNT_DELETION_MAX_AUTH_AGE_SECONDS = 5 * 60;
