import { z } from 'zod';

/**
 * "Test connection" on an NTRIP account's connection card (issue 17): the server logs in to its caster as the
 * account, on the chosen mountpoint, for up to CONNECTION_TEST_SECONDS, and reports what came back. Field design:
 * docs/adr/0022-connection-card.md.
 */

/** How long the server listens to the caster at most. */
export const CONNECTION_TEST_SECONDS = 10;
/** Tests one user may start per minute (each holds a caster connection for up to 10 s). */
export const CONNECTION_TESTS_PER_MINUTE = 6;

export const connectionTestBodySchema = z.object({
  mountpoint: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - only, at most 64 characters'),
  /** The rover's position; a nearest-station mountpoint sends nothing without one. */
  position: z.object({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) }).optional(),
});
export type ConnectionTestBody = z.infer<typeof connectionTestBodySchema>;

/**
 * Why no corrections came, when none did: `no_access` (no grant covers the mountpoint's network), `disabled`,
 * `unknown_mountpoint`, `too_many_connections` (the account's rovers use every connection it allows, and the test
 * takes one like them), `no_data` (logged in, but nothing in the time: the station sends nothing),
 * `needs_position` (a nearest-station mountpoint tested without a position), `not_rtcm` (bytes without one valid
 * RTCM 3 frame), `caster_unreachable`, `caster_error` (any other answer).
 */
export const connectionTestReasons = [
  'no_access',
  'disabled',
  'unknown_mountpoint',
  'too_many_connections',
  'no_data',
  'needs_position',
  'not_rtcm',
  'caster_unreachable',
  'caster_error',
] as const;
export type ConnectionTestReason = (typeof connectionTestReasons)[number];

export const gnssConstellations = ['GPS', 'GLONASS', 'Galileo', 'SBAS', 'QZSS', 'BeiDou', 'NavIC'] as const;
export type Constellation = (typeof gnssConstellations)[number];

/** What an RTCM 3 message is for, as the card explains it. */
export const rtcmMessageKinds = [
  'station',
  'antenna',
  'msm',
  'legacy_observations',
  'ephemeris',
  'glonass_biases',
  'other',
] as const;
export type RtcmMessageKind = (typeof rtcmMessageKinds)[number];

export interface RtcmMessageInfo {
  kind: RtcmMessageKind;
  constellation: Constellation | null;
  /** MSM 1–7 for multiple-signal messages. */
  msm: number | null;
}

const MSM_CONSTELLATIONS: Constellation[] = ['GPS', 'GLONASS', 'Galileo', 'SBAS', 'QZSS', 'BeiDou', 'NavIC'];
const EPHEMERIS: Record<number, Constellation> = {
  1019: 'GPS',
  1020: 'GLONASS',
  1041: 'NavIC',
  1042: 'BeiDou',
  1044: 'QZSS',
  1045: 'Galileo',
  1046: 'Galileo',
};

/** The meaning of an RTCM 3 message number (RTCM 10403.3 message list). */
export function rtcmMessageInfo(type: number): RtcmMessageInfo {
  if (type === 1005 || type === 1006) return { kind: 'station', constellation: null, msm: null };
  if (type === 1007 || type === 1008 || type === 1033) return { kind: 'antenna', constellation: null, msm: null };
  if (type === 1230) return { kind: 'glonass_biases', constellation: 'GLONASS', msm: null };
  const ephemeris = EPHEMERIS[type];
  if (ephemeris) return { kind: 'ephemeris', constellation: ephemeris, msm: null };
  if (type >= 1001 && type <= 1004) return { kind: 'legacy_observations', constellation: 'GPS', msm: null };
  if (type >= 1009 && type <= 1012) return { kind: 'legacy_observations', constellation: 'GLONASS', msm: null };
  if (type >= 1071 && type <= 1137) {
    const msm = (type - 1070) % 10;
    const constellation = MSM_CONSTELLATIONS[Math.floor((type - 1070) / 10)];
    if (constellation && msm >= 1 && msm <= 7) return { kind: 'msm', constellation, msm };
  }
  return { kind: 'other', constellation: null, msm: null };
}

export const connectionTestMessageSchema = z.object({
  type: z.number().int(),
  count: z.number().int(),
  kind: z.enum(rtcmMessageKinds),
  constellation: z.enum(gnssConstellations).nullable(),
  msm: z.number().int().nullable(),
});
export type ConnectionTestMessage = z.infer<typeof connectionTestMessageSchema>;

export const connectionTestResultSchema = z.object({
  mountpoint: z.string(),
  /** RTCM 3 frames arrived. */
  ok: z.boolean(),
  reason: z.enum(connectionTestReasons).nullable(),
  /** The first line of the caster's answer (`ICY 200 OK`, `HTTP/1.1 403 Forbidden`); null without one. */
  casterAnswer: z.string().nullable(),
  durationMs: z.number().int(),
  bytes: z.number().int(),
  frames: z.number().int(),
  /** From the login to the first frame. */
  firstFrameAfterMs: z.number().int().nullable(),
  /** From the last frame to the end of the test. */
  lastFrameAgeMs: z.number().int().nullable(),
  /**
   * How far the newest observation epoch lies behind the server's clock, in seconds. RTCM 3 carries the time of
   * week only, so this is exact for live data and wraps for data older than half a week.
   */
  observationAgeSeconds: z.number().nullable(),
  /** The reference station id of the observations and station messages. */
  stationId: z.number().int().nullable(),
  messages: z.array(connectionTestMessageSchema),
  /** Satellites in the last complete observation epoch of each constellation. */
  satellites: z.array(z.object({ constellation: z.enum(gnssConstellations), count: z.number().int() })),
});
export type ConnectionTestResult = z.infer<typeof connectionTestResultSchema>;
