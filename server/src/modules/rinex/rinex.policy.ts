import {
  defaultRinexPricePerHour,
  HOUR_MS,
  type HourAvailability,
  type OrganizationRole,
  type RinexCharge,
} from '@portal/contract';
import type { Actor } from '../../shared/actor.ts';

/** Pure rules of RINEX in the portal. */

/** What the archive index says about one hour, merged over the mountpoints the station was archived under. */
export interface IndexedHour {
  hour: Date;
  bytes: number;
  /** Minutes of the hour (0–59) holding an observation epoch stored in it. */
  epochMinutes: readonly number[];
}

const MINUTES = 60;

/**
 * An hour as the availability bar shows it, from the epochs stored for it (never the frames' arrival times): the
 * share is the share of its minutes that hold an epoch, and it is full only when every minute does. A station at a
 * 30 s interval has two epochs a minute, so a whole hour of it is full; a gap of a minute or more shows.
 */
export function classifyHour(start: number, row: IndexedHour | undefined, now: number): HourAvailability {
  const end = start + HOUR_MS;
  const base = {
    start: new Date(start).toISOString(),
    bytes: row?.bytes ?? 0,
    recording: start <= now && now < end,
    future: start > now,
  };
  const minutes = new Set(row?.epochMinutes.filter((m) => m >= 0 && m < MINUTES)).size;
  if (minutes === 0) return { ...base, status: 'none', percent: 0 };
  if (minutes === MINUTES) return { ...base, status: 'full', percent: 100 };
  const percent = Math.min(99, Math.max(1, Math.round((minutes / MINUTES) * 100)));
  return { ...base, status: 'partial', percent };
}

export interface PriceNetwork {
  status: string;
  token_price_per_day: number;
  rinex_price_per_hour: number | null;
}

/** Tokens per station-hour: the admin's price, or the default from the day price; null when not sold by tokens. */
export function rinexPricePerHour(network: PriceNetwork): number | null {
  if (network.status === 'retired') return null;
  return network.rinex_price_per_hour ?? defaultRinexPricePerHour(network.token_price_per_day);
}

/**
 * How a job is paid: an admin's is free (support); a plan with RINEX on the station's network makes it free; a
 * price of 0 is free; otherwise tokens, when the network sells RINEX at all.
 */
export function chargeFor(options: {
  byAdmin: boolean;
  planCovers: boolean;
  pricePerHour: number | null;
}): RinexCharge {
  if (options.byAdmin) return 'admin';
  if (options.planCovers) return 'plan';
  if (options.pricePerHour === null) return 'not_for_sale';
  return options.pricePerHour === 0 ? 'free' : 'tokens';
}

export function priceOf(charge: RinexCharge, pricePerHour: number | null, hoursWithData: number): number {
  return charge === 'tokens' && pricePerHour !== null ? pricePerHour * hoursWithData : 0;
}

/** Who may buy for an organisation: its owners and admins, as for its subscriptions (docs/adr/0010). */
export function canBuyForOrganization(role: OrganizationRole | undefined): boolean {
  return role === 'owner' || role === 'admin';
}

export interface JobOwnership {
  user_id: string;
  organization_id: string | null;
}

/** The job's buyer, any member of its organisation, or a portal admin may see and download it. */
export function canReadJob(actor: Actor, job: JobOwnership, organizationIds: readonly string[]): boolean {
  if (actor.isAdmin || job.user_id === actor.userId) return true;
  return job.organization_id !== null && organizationIds.includes(job.organization_id);
}
