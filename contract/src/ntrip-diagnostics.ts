import { z } from 'zod';
import { profileConstellationSchema, rtcmProfileSchema } from './ntrip-accounts.ts';
import { pageQueryFields, pageSchema } from './paging.ts';

/**
 * Why a rover gets no corrections (issue 17): the refused attempts of an NTRIP account, aggregated per reason and
 * minute by the caster, and the admin-wide log of attempts with usernames that name no account.
 */

const isoDateTime = z.iso.datetime({ offset: true });

/**
 * `mountpoint_offline` and `near_no_position` are not refusals at login: the rover was let in and received
 * nothing, because its station has no source (listed at login, `offlineAtLogin`) or its source sends nothing, or,
 * on the nearest-station mountpoint, because it sent no position (GGA) in its first seconds.
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
export const NEAR_POSITION_WAIT_SECONDS = 8;
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
  disabled: z.enum(['account', 'owner', 'membership']).optional(),
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
  /**
   * mountpoint_offline: no source fed the station when the rover logged in, so it was listed then rather than after
   * a wait; the rover stays connected (docs/adr/0046-offline-mountpoints-and-rovers-without-a-position.md).
   */
  offlineAtLogin: z.boolean().optional(),
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
  /** The last attempt came over the caster's TLS port (issue 38). */
  tls: z.boolean(),
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
  tls: z.boolean(),
});
export type LoginFailure = z.infer<typeof loginFailureSchema>;

export const loginFailureQuerySchema = z.object(pageQueryFields({ defaultLimit: 20, maxLimit: 100 }));
export type LoginFailureQuery = z.input<typeof loginFailureQuerySchema>;

export const loginFailurePageSchema = pageSchema(loginFailureSchema);
export type LoginFailurePage = z.infer<typeof loginFailurePageSchema>;

// --- live sessions and sources (issue 17) ---

/** GGA fix quality in words (NMEA 0 no fix, 1 single, 2 DGNSS, 4 RTK fixed, 5 RTK float; 3, 6–8 other). */
export const fixQualities = ['no_fix', 'single', 'dgnss', 'float', 'fixed', 'other'] as const;
export const fixQualitySchema = z.enum(fixQualities);
export type FixQuality = z.infer<typeof fixQualitySchema>;

export const liveSessionSchema = z.object({
  id: z.string(),
  /** The caster node the rover is connected to. */
  node: z.string(),
  accountId: z.uuid(),
  remoteAddress: z.string(),
  userAgent: z.string().nullable(),
  ntripVersion: z.union([z.literal(1), z.literal(2)]),
  /** Connected over the caster's TLS port (issue 38). */
  tls: z.boolean(),
  mountpoint: z.string(),
  /** The station whose corrections it gets (for the nearest-station mountpoint, the one chosen); null: none yet. */
  servedStation: z.string().nullable(),
  /** From the rover's last GGA position to the served station, km. */
  distanceKm: z.number().nullable(),
  /** What it gets (issue 36): the profile (its account's, or its mountpoint suffix's) and the constellations. */
  rtcmProfile: rtcmProfileSchema,
  constellations: z.array(profileConstellationSchema).nullable(),
  connectedAt: isoDateTime,
  bytesSent: z.number().int(),
  position: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
  /** From the rover's last GGA; null until it sends one. */
  fix: z
    .object({
      quality: fixQualitySchema,
      ageOfCorrections: z.number().nullable(),
      satellites: z.number().int().nullable(),
      at: isoDateTime,
    })
    .nullable(),
});
export type LiveSession = z.infer<typeof liveSessionSchema>;

/**
 * `complete` is false when a caster node that announced itself did not answer in time: the list may miss its
 * rovers. `at` is the server's time of the answer.
 */
export const liveSessionListSchema = z.object({
  items: z.array(liveSessionSchema),
  complete: z.boolean(),
  at: isoDateTime,
});
export type LiveSessionList = z.infer<typeof liveSessionListSchema>;

/** Admin: every live session, with the account it belongs to. */
export const adminLiveSessionSchema = liveSessionSchema.extend({
  accountUsername: z.string().nullable(),
  accountLabel: z.string().nullable(),
});
export type AdminLiveSession = z.infer<typeof adminLiveSessionSchema>;
export const adminLiveSessionListSchema = z.object({
  items: z.array(adminLiveSessionSchema),
  complete: z.boolean(),
  at: isoDateTime,
});
export type AdminLiveSessionList = z.infer<typeof adminLiveSessionListSchema>;

/** A base station's live connection, as the admin feed list shows it. */
export const liveSourceSchema = z.object({
  node: z.string(),
  mountpoint: z.string(),
  kind: z.enum(['push', 'pull']),
  address: z.string().nullable(),
  connectedAt: isoDateTime,
  lastFrameAt: isoDateTime.nullable(),
  /** Seconds since the last valid frame, by the caster's clock; null when none arrived since it connected. */
  lastFrameAgeSeconds: z.number().nullable(),
  bytesPerSecond: z.number().int(),
  /** A valid frame arrived within the online window (STATION_ONLINE_SECONDS): the station is online. */
  receiving: z.boolean(),
});
export type LiveSource = z.infer<typeof liveSourceSchema>;
export const liveSourceListSchema = z.object({ items: z.array(liveSourceSchema), complete: z.boolean() });
export type LiveSourceList = z.infer<typeof liveSourceListSchema>;
