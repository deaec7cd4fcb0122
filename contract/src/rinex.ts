import { z } from 'zod';

/**
 * RINEX from the station archive (issue 24): what the archive holds per station and UTC hour, the price, conversion
 * jobs and their downloads, and the admin side. Shared by the API routes and the SPA. Choices: docs/adr (RINEX in
 * the portal).
 */

const uuid = z.uuid();
const isoDateTime = z.iso.datetime({ offset: true });

export const HOUR_MS = 3_600_000;
/** Most hours one job converts. */
export const MAX_RINEX_JOB_HOURS = 24;
/** Jobs one user may have queued or running at once. */
export const MAX_RUNNING_RINEX_JOBS = 3;
/** How long a finished job's zip (and its signed link) can be downloaded. */
export const RINEX_RESULT_DAYS = 7;
/** Days of the admin's per-station coverage strip. */
export const RINEX_COVERAGE_DAYS = 30;
/** Stations answered by the nearest-station search. */
export const NEAREST_STATIONS = 5;

/** Observation intervals a job may ask for, seconds (epochs on whole multiples are kept). */
export const RINEX_INTERVALS = [1, 5, 15, 30] as const;
export type RinexInterval = (typeof RINEX_INTERVALS)[number];

/** Constellations by their RINEX letter, in RINEX's order. */
export const RINEX_SYSTEMS = ['G', 'R', 'E', 'C', 'J', 'I', 'S'] as const;
export type RinexSystem = (typeof RINEX_SYSTEMS)[number];
export const RINEX_SYSTEM_NAMES: Record<RinexSystem, string> = {
  G: 'GPS',
  R: 'GLONASS',
  E: 'Galileo',
  C: 'BeiDou',
  J: 'QZSS',
  I: 'NavIC',
  S: 'SBAS',
};

/** Error codes of these calls, beyond the shared ones. */
export const rinexErrorCodes = [
  /** 400 (field `to`): the window ends before (or where) it starts. */
  'window_end_before_start',
  /** 400 (field `to`): more than MAX_RINEX_JOB_HOURS hours. */
  'window_too_long',
  /** 400 (field `from` or `to`): the window starts now or later, or ends after the current hour. */
  'window_in_future',
  /** 400 (field `from` or `to`): not the start of a UTC hour. */
  'window_not_whole_hours',
  /** 409: none of the window's hours holds data; nothing was charged. */
  'no_data_in_window',
  /** 409: the station's network sells no RINEX for tokens (retired, or no price) and no plan covers it. */
  'rinex_not_for_sale',
  /** 402: the balance does not cover the price; nothing was charged or started. */
  'insufficient_tokens',
  /** 429: the user already has MAX_RUNNING_RINEX_JOBS jobs queued or running. */
  'too_many_rinex_jobs',
  /** 409: the job has not finished (or failed), so there is nothing to download. */
  'rinex_job_not_ready',
  /** 410: the job's zip was kept RINEX_RESULT_DAYS days and is gone. */
  'rinex_result_expired',
  /** 403: a signed download link past its time, or whose signature does not match. */
  'link_expired',
  'link_invalid',
] as const;
export type RinexErrorCode = (typeof rinexErrorCodes)[number];

export interface WindowProblem {
  code: Extract<
    RinexErrorCode,
    'window_end_before_start' | 'window_too_long' | 'window_in_future' | 'window_not_whole_hours'
  >;
  field: 'from' | 'to';
  message: string;
}

/** Start of the UTC hour holding `ms`. */
export function hourFloor(ms: number): number {
  return Math.floor(ms / HOUR_MS) * HOUR_MS;
}

/**
 * What is wrong with a window of whole UTC hours [from, to), or null. The current hour may be bought while it is
 * recorded (a surveyor wants this morning's data now); anything later may not.
 */
export function rinexWindowProblem(from: Date, to: Date, now: Date): WindowProblem | null {
  if (from.getTime() % HOUR_MS !== 0) {
    return { code: 'window_not_whole_hours', field: 'from', message: 'The window must start on a whole UTC hour.' };
  }
  if (to.getTime() % HOUR_MS !== 0) {
    return { code: 'window_not_whole_hours', field: 'to', message: 'The window must end on a whole UTC hour.' };
  }
  if (to.getTime() <= from.getTime()) {
    return { code: 'window_end_before_start', field: 'to', message: 'The window must end after it starts.' };
  }
  if (to.getTime() - from.getTime() > MAX_RINEX_JOB_HOURS * HOUR_MS) {
    return {
      code: 'window_too_long',
      field: 'to',
      message: `A job covers at most ${MAX_RINEX_JOB_HOURS} hours.`,
    };
  }
  if (from.getTime() > now.getTime()) {
    return { code: 'window_in_future', field: 'from', message: 'The window starts in the future.' };
  }
  if (to.getTime() > hourFloor(now.getTime()) + HOUR_MS) {
    return { code: 'window_in_future', field: 'to', message: 'The window ends after the current hour.' };
  }
  return null;
}

/** Hours of [from, to) as their start instants (Unix ms). */
export function hoursOf(from: Date, to: Date): number[] {
  const out: number[] = [];
  for (let h = hourFloor(from.getTime()); h < to.getTime(); h += HOUR_MS) out.push(h);
  return out;
}

/**
 * Tokens per station-hour when an admin has not set one: the network's day price spread over 24 hours, rounded
 * up, so an hour of one station's data costs about an hour of the network's RTK. Null when the network is not
 * sold by tokens (price 0).
 */
export function defaultRinexPricePerHour(tokenPricePerDay: number): number | null {
  return tokenPricePerDay > 0 ? Math.ceil(tokenPricePerDay / 24) : null;
}

export const mountpointParamSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'not a mountpoint');

const windowFields = {
  /** Start of the first UTC hour (inclusive). */
  from: isoDateTime,
  /** End of the last UTC hour (exclusive). */
  to: isoDateTime,
};

export const rinexAvailabilityQuerySchema = z.object({ station: mountpointParamSchema, ...windowFields });
export type RinexAvailabilityQuery = z.infer<typeof rinexAvailabilityQuerySchema>;

export const hourStatuses = ['full', 'partial', 'none'] as const;
export const hourAvailabilitySchema = z.object({
  start: isoDateTime,
  status: z.enum(hourStatuses),
  /** Share of the hour's epochs the archive holds, 0–100. */
  percent: z.number().int().min(0).max(100),
  /** RTCM bytes archived in the hour. */
  bytes: z.number().int(),
  /** The hour has not ended: it is still being recorded. */
  recording: z.boolean(),
  /** The hour has not started. */
  future: z.boolean(),
});
export type HourAvailability = z.infer<typeof hourAvailabilitySchema>;

export const rinexStationSchema = z.object({
  id: uuid,
  mountpoint: z.string(),
  identifier: z.string(),
  country: z.string(),
  networkId: uuid,
  networkName: z.string(),
  latitude: z.number(),
  longitude: z.number(),
});
export type RinexStation = z.infer<typeof rinexStationSchema>;

/** How the caller would pay: tokens, nothing under a plan with RINEX, nothing at price 0, or not at all. */
export const rinexChargeSchema = z.enum(['tokens', 'plan', 'free', 'admin', 'not_for_sale']);
export type RinexCharge = z.infer<typeof rinexChargeSchema>;

export const rinexAvailabilitySchema = z.object({
  station: rinexStationSchema,
  from: isoDateTime,
  to: isoDateTime,
  hours: z.array(hourAvailabilitySchema),
  /** Hours holding data: the ones a job charges for. */
  hoursWithData: z.number().int(),
  charge: rinexChargeSchema,
  /** Tokens per station-hour for this caller; null when not for sale by tokens. */
  pricePerHour: z.number().int().nullable(),
  /** What a job of this window costs the caller now, in tokens (0 under a plan). */
  price: z.number().int(),
});
export type RinexAvailability = z.infer<typeof rinexAvailabilitySchema>;

export const nearestQuerySchema = z.object({
  lat: z.coerce.number().min(-90).max(90),
  lon: z.coerce.number().min(-180).max(180),
});
export const nearestStationSchema = rinexStationSchema.extend({ distanceKm: z.number() });
export type NearestStation = z.infer<typeof nearestStationSchema>;
export const nearestStationListSchema = z.object({ items: z.array(nearestStationSchema) });

const systemsSchema = z
  .array(z.enum(RINEX_SYSTEMS))
  .min(1)
  .max(RINEX_SYSTEMS.length)
  .refine((s) => new Set(s).size === s.length, 'each constellation once');

export const createRinexJobBodySchema = z.object({
  station: mountpointParamSchema,
  ...windowFields,
  interval: z
    .number()
    .int()
    .refine((n) => (RINEX_INTERVALS as readonly number[]).includes(n), `one of ${RINEX_INTERVALS.join(', ')}`)
    .default(30),
  systems: systemsSchema.default([...RINEX_SYSTEMS]),
  /** Buy for this organisation: its owners and admins may (docs/adr/0010); every member sees the job. */
  orgId: uuid.optional(),
});
export type CreateRinexJobBody = z.input<typeof createRinexJobBodySchema>;

export const adminCreateRinexJobBodySchema = createRinexJobBodySchema.omit({ orgId: true }).extend({ userId: uuid });
export type AdminCreateRinexJobBody = z.input<typeof adminCreateRinexJobBodySchema>;

export const rinexJobStatuses = ['queued', 'running', 'done', 'failed', 'expired'] as const;
export const rinexJobStatusSchema = z.enum(rinexJobStatuses);
export type RinexJobStatus = z.infer<typeof rinexJobStatusSchema>;

export const rinexJobSchema = z.object({
  id: uuid,
  station: z.object({ id: uuid.nullable(), mountpoint: z.string(), networkName: z.string() }),
  from: isoDateTime,
  to: isoDateTime,
  interval: z.number().int(),
  systems: z.array(z.enum(RINEX_SYSTEMS)),
  status: rinexJobStatusSchema,
  /** 0–1: moves with the hours converted. */
  progress: z.number().min(0).max(1),
  hoursTotal: z.number().int(),
  hoursWithData: z.number().int(),
  charge: rinexChargeSchema,
  tokensCharged: z.number().int(),
  tokensRefunded: z.number().int(),
  organizationId: uuid.nullable(),
  /** An admin made it (support): free, and shown in the user's history. */
  createdByAdmin: z.boolean(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  result: z
    .object({
      fileName: z.string(),
      bytes: z.number().int(),
      epochs: z.number().int(),
      files: z.array(z.string()),
    })
    .nullable(),
  /** A link valid until `expiresAt` that downloads without a bearer token; only for those who may download. */
  downloadUrl: z.string().nullable(),
  expiresAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
  startedAt: isoDateTime.nullable(),
  finishedAt: isoDateTime.nullable(),
});
export type RinexJob = z.infer<typeof rinexJobSchema>;

export const rinexJobListSchema = z.object({ items: z.array(rinexJobSchema) });
export const rinexJobParamsSchema = z.object({ id: uuid });
/** A signed link's query: its expiry (Unix seconds) and HMAC. Without them the owner's bearer token is needed. */
export const rinexDownloadQuerySchema = z.object({
  expires: z.coerce.number().int().positive().optional(),
  signature: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/)
    .optional(),
});
export const adminRinexJobQuerySchema = z.object({ userId: uuid.optional() });

// ---------- admin ----------

export const adminRinexNetworkSchema = z.object({
  id: uuid,
  slug: z.string(),
  name: z.string(),
  status: z.string(),
  tokenPricePerDay: z.number().int(),
  /** Set by an admin; null: the default from the token price. */
  rinexPricePerHour: z.number().int().nullable(),
  /** What a station-hour costs now; null: not sold by tokens. */
  effectivePricePerHour: z.number().int().nullable(),
  retentionDays: z.number().int(),
  stations: z.number().int(),
  archivedHours: z.number().int(),
  archivedBytes: z.number().int(),
});
export type AdminRinexNetwork = z.infer<typeof adminRinexNetworkSchema>;
export const adminRinexNetworkListSchema = z.object({ items: z.array(adminRinexNetworkSchema) });

export const adminRinexNetworkPatchSchema = z
  .object({
    rinexPricePerHour: z.number().int().min(0).max(1_000_000).nullable(),
    retentionDays: z.number().int().min(1).max(3650),
  })
  .partial();
export type AdminRinexNetworkPatch = z.infer<typeof adminRinexNetworkPatchSchema>;

export const adminRinexStationsQuerySchema = z.object({ network: uuid });
export const adminRinexStationSchema = z.object({
  id: uuid,
  mountpoint: z.string(),
  /** One entry per hour of the last RINEX_COVERAGE_DAYS days, oldest first: percent of epochs held, 0–100. */
  coverage: z.array(z.number().int().min(0).max(100)),
  /** Start of the strip's first hour. */
  coverageFrom: isoDateTime,
  archivedHours: z.number().int(),
  bytes: z.number().int(),
  storedBytes: z.number().int(),
});
export type AdminRinexStation = z.infer<typeof adminRinexStationSchema>;
export const adminRinexStationListSchema = z.object({ items: z.array(adminRinexStationSchema) });

export const adminRinexTotalsSchema = z.object({
  stations: z.number().int(),
  hours: z.number().int(),
  bytes: z.number().int(),
  storedBytes: z.number().int(),
  oldestHour: isoDateTime.nullable(),
  newestHour: isoDateTime.nullable(),
  jobs: z.object({ queued: z.number().int(), running: z.number().int(), done: z.number().int() }),
});
export type AdminRinexTotals = z.infer<typeof adminRinexTotalsSchema>;
