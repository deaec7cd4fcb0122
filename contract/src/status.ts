import { z } from 'zod';
import { integrityCodes, SLUG_PATTERN } from './catalogue.ts';

/**
 * The public status page (issue 33, docs/adr/0068-status-page.md): every public network and station, now and over the
 * last 90 days, computed on the server from the recorded state changes of the stations.
 */

const isoDateTime = z.iso.datetime({ offset: true });

/** How far back the status page looks. */
export const STATUS_WINDOW_DAYS = 90;
/** The most incidents one network lists (the newest first); the feeds list at most FEED_INCIDENTS. */
export const STATUS_NETWORK_INCIDENTS = 50;
export const STATUS_FEED_INCIDENTS = 100;

/**
 * Why a station was not available: `offline` no data flowed, `integrity` data flowed but the integrity monitor
 * found it failing (its reason codes in `codes`).
 */
export const incidentCauses = ['offline', 'integrity'] as const;
export type IncidentCause = (typeof incidentCauses)[number];

/**
 * `unmonitored`: no base has ever sent this station data, so there is nothing to watch yet (docs/adr/0080); its time
 * does not count in any availability until its first data.
 */
export const stationAvailabilityStates = ['available', 'offline', 'integrity', 'unmonitored'] as const;
/**
 * Of the stations that are monitored: a network is operational with every one available, down with none, degraded
 * between; `unmonitored` when none of its stations has ever had data.
 */
export const networkAvailabilityStates = ['operational', 'degraded', 'down', 'unmonitored'] as const;

export const incidentSchema = z.object({
  /** Stable for one incident: the station and the moment it started. */
  id: z.string(),
  networkSlug: z.string(),
  stationId: z.string(),
  mountpoint: z.string(),
  cause: z.enum(incidentCauses),
  /** The integrity monitor's reason codes while it lasted; empty for `offline`. */
  codes: z.array(z.enum(integrityCodes)),
  /** When it started, or the window's start when it began earlier than 90 days ago. */
  start: isoDateTime,
  /** Null while it lasts. */
  end: isoDateTime.nullable(),
});
export type Incident = z.infer<typeof incidentSchema>;

/** One UTC day of the strip: its date and the availability in percent, null when nothing was recorded that day. */
export const statusDaySchema = z.object({ date: z.iso.date(), availability: z.number().min(0).max(100).nullable() });
export type StatusDay = z.infer<typeof statusDaySchema>;

/**
 * A day strip in compact form (docs/adr/0080): the first day's date and the availability of each day from it, oldest
 * first, today last; null when nothing was recorded that day. Ninety objects with a date each were most of a
 * network of hundreds of stations' answer.
 */
export const dayStripSchema = z.object({
  from: z.iso.date(),
  availability: z.array(z.number().min(0).max(100).nullable()),
});
export type DayStrip = z.infer<typeof dayStripSchema>;

/** The strip's days with their dates. */
export function stripDays(strip: DayStrip): StatusDay[] {
  const first = Date.parse(`${strip.from}T00:00:00Z`);
  return strip.availability.map((availability, k) => ({
    date: new Date(first + k * 86_400_000).toISOString().slice(0, 10),
    availability,
  }));
}

export const stationStatusSchema = z.object({
  id: z.string(),
  mountpoint: z.string(),
  identifier: z.string(),
  country: z.string(),
  state: z.enum(stationAvailabilityStates),
  /** Percent of the recorded time in the last 90 days the station was online and not failing; null before any. */
  availability: z.number().min(0).max(100).nullable(),
});
export type StationStatus = z.infer<typeof stationStatusSchema>;

/**
 * GET /api/status/networks/{slug}/days: the day strips of a network's stations, asked for when someone opens its
 * station list; `stations` in the order of the network's `stations`.
 */
export const statusNetworkParamsSchema = z.object({ slug: z.string().max(64).regex(SLUG_PATTERN) });

export const networkStationDaysSchema = z.object({
  slug: z.string(),
  stations: z.array(z.object({ id: z.string(), days: dayStripSchema })),
});
export type NetworkStationDays = z.infer<typeof networkStationDaysSchema>;

export const networkStatusSchema = z.object({
  slug: z.string(),
  name: z.string(),
  state: z.enum(networkAvailabilityStates),
  /** Percent of the stations' recorded time in the last 90 days they were available; null before any. */
  availability: z.number().min(0).max(100).nullable(),
  /** The network's last 90 UTC days (its stations' time together). */
  days: dayStripSchema,
  stations: z.array(stationStatusSchema),
  /** The newest first, at most STATUS_NETWORK_INCIDENTS. */
  incidents: z.array(incidentSchema),
});
export type NetworkStatus = z.infer<typeof networkStatusSchema>;

export const statusSchema = z.object({
  /** When this answer was computed (answers are reused for a few seconds). */
  generatedAt: isoDateTime,
  windowDays: z.number().int(),
  networks: z.array(networkStatusSchema),
});
export type Status = z.infer<typeof statusSchema>;

/** GET /api/status/incidents.json: the newest incidents of every public network, at most STATUS_FEED_INCIDENTS. */
export const incidentFeedSchema = z.object({ generatedAt: isoDateTime, items: z.array(incidentSchema) });
export type IncidentFeed = z.infer<typeof incidentFeedSchema>;
