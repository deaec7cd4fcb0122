/**
 * The path of the SPA page an invite link opens; the token rides in its `token` query parameter. A module without
 * zod: the SPA's router needs it on the first page load.
 */
export const INVITE_LINK_PATH = '/invites/accept';
