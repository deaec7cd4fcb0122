import { z } from 'zod';
import { integrityCodes } from './catalogue.ts';

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

export const stationAvailabilityStates = ['available', 'offline', 'integrity'] as const;
/** A network is operational with every station available, down with none, degraded between. */
export const networkAvailabilityStates = ['operational', 'degraded', 'down'] as const;

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

export const stationStatusSchema = z.object({
  id: z.string(),
  mountpoint: z.string(),
  identifier: z.string(),
  country: z.string(),
  state: z.enum(stationAvailabilityStates),
  /** Percent of the recorded time in the last 90 days the station was online and not failing; null before any. */
  availability: z.number().min(0).max(100).nullable(),
  /** The last 90 UTC days, oldest first, today last. */
  days: z.array(statusDaySchema),
});
export type StationStatus = z.infer<typeof stationStatusSchema>;

export const networkStatusSchema = z.object({
  slug: z.string(),
  name: z.string(),
  state: z.enum(networkAvailabilityStates),
  /** Percent of the stations' recorded time in the last 90 days they were available; null before any. */
  availability: z.number().min(0).max(100).nullable(),
  days: z.array(statusDaySchema),
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
