/**
 * The path of the SPA page an invite link opens; the token rides in its `token` query parameter. A module without
 * zod: the SPA's router needs it on the first page load.
 */
export const INVITE_LINK_PATH = '/invites/accept';

/**
 * Header the SPA sends while it holds an invite link's token (opened before signing up), so that a portal whose
 * sign-up is invite-only admits its holder on their first authenticated call (docs/adr/0033).
 */
export const INVITE_TOKEN_HEADER = 'x-invite-token';

/** The 403 `code` answered to the first call of someone not invited while sign-up is invite-only. */
export const SIGN_UP_INVITE_ONLY = 'sign_up_invite_only';
