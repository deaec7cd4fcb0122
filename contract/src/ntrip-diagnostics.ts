import { z } from 'zod';

/**
 * Why a rover gets no corrections (issue 17): the refused attempts of an NTRIP account, aggregated per reason and
 * minute by the caster, and the admin-wide log of attempts with usernames that name no account.
 */

const isoDateTime = z.iso.datetime({ offset: true });

/**
 * `mountpoint_offline` and `near_no_position` are not refusals at login: the rover was let in and received no
 * frame in its first seconds, because its station sends nothing or, on the nearest-station mountpoint, because it
 * sent no position (GGA).
 */
export const refusalReasons = [
  'wrong_password',
  'account_disabled',
  'no_access',
  'too_many_connections',
  'unknown_mountpoint',
  'mountpoint_offline',
  'near_no_position',
  'throttled',
] as const;
export const refusalReasonSchema = z.enum(refusalReasons);
export type RefusalReason = z.infer<typeof refusalReasonSchema>;

/** How long a nearest-station rover may go without sending a position before it is listed (the caster's setting). */
export const NEAR_POSITION_WAIT_SECONDS = 15;
/** Refused attempts listed per account: the last day, newest first, at most this many minutes × reasons. */
export const MAX_REFUSALS_LISTED = 100;
export const REFUSALS_WINDOW_HOURS = 24;

export const otherSessionSchema = z.object({
  remoteAddress: z.string(),
  mountpoint: z.string(),
  since: isoDateTime,
  userAgent: z.string().nullable(),
});
export type OtherSession = z.infer<typeof otherSessionSchema>;

/** What the owner needs to fix the refusal; which fields are set depends on the reason. */
export const refusalDetailSchema = z.object({
  /** account_disabled: switched off on the account itself, or the portal user owning it is disabled. */
  disabled: z.enum(['account', 'owner']).optional(),
  /** no_access: the network of the mountpoint, and when the account's access to it ended (null: never activated). */
  network: z.object({ slug: z.string(), name: z.string() }).optional(),
  accessEndedAt: isoDateTime.nullable().optional(),
  /** too_many_connections: the account's limit and the rovers connected with it at the time. */
  limit: z.number().int().optional(),
  sessions: z.array(otherSessionSchema).optional(),
  /** throttled: which rule refused it (docs/adr/0015-login-throttling.md). */
  throttle: z.enum(['pair', 'name', 'address']).optional(),
  /** mountpoint_offline, near_no_position: seconds the rover waited without receiving a frame. */
  waitedSeconds: z.number().int().optional(),
});
export type RefusalDetail = z.infer<typeof refusalDetailSchema>;

/** Attempts of one reason within one minute; the other fields are those of the last attempt. */
export const refusalSchema = z.object({
  id: z.string(),
  reason: refusalReasonSchema,
  minute: isoDateTime,
  count: z.number().int(),
  firstAt: isoDateTime,
  lastAt: isoDateTime,
  mountpoint: z.string(),
  remoteAddress: z.string(),
  userAgent: z.string().nullable(),
  ntripVersion: z.union([z.literal(1), z.literal(2)]),
  detail: refusalDetailSchema,
});
export type Refusal = z.infer<typeof refusalSchema>;

export const refusalListSchema = z.object({ items: z.array(refusalSchema) });
export type RefusalList = z.infer<typeof refusalListSchema>;

export const loginFailureReasonSchema = z.enum(['unknown_username', ...refusalReasons]);

/** Admin-wide: attempts whose username names no account, per address, reason and minute, with a few names tried. */
export const loginFailureSchema = z.object({
  id: z.string(),
  reason: loginFailureReasonSchema,
  minute: isoDateTime,
  count: z.number().int(),
  firstAt: isoDateTime,
  lastAt: isoDateTime,
  /** '*': attempts of a storm too large to keep apart by address. */
  remoteAddress: z.string(),
  usernames: z.array(z.string()),
  mountpoint: z.string(),
  userAgent: z.string().nullable(),
  ntripVersion: z.union([z.literal(1), z.literal(2)]),
});
export type LoginFailure = z.infer<typeof loginFailureSchema>;

export const loginFailureQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type LoginFailureQuery = z.input<typeof loginFailureQuerySchema>;

export const loginFailurePageSchema = z.object({
  items: z.array(loginFailureSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type LoginFailurePage = z.infer<typeof loginFailurePageSchema>;
