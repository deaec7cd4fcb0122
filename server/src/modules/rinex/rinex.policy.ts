import {
  defaultRinexPricePerHour,
  HOUR_MS,
  type HourAvailability,
  type OrganizationRole,
  type RinexCharge,
} from '@portal/contract';
import type { Actor } from '../../http/auth.ts';

/** Pure rules of RINEX in the portal. */

/** What the archive index says about one hour, merged over the mountpoints the station was archived under. */
export interface IndexedHour {
  hour: Date;
  bytes: number;
  firstEpoch: Date | null;
  lastEpoch: Date | null;
}

/**
 * Epochs this close to the hour's edges still make it full: a station at a 30 s interval has its first epoch at
 * :00:00 and its last at :59:30.
 */
const EDGE_MS = 31_000;

/**
 * An hour as the availability bar shows it. The index keeps each hour's first and last observation epoch, so the
 * share of epochs is the share of the hour between them (gaps inside the hour are not seen by the index).
 */
export function classifyHour(start: number, row: IndexedHour | undefined, now: number): HourAvailability {
  const end = start + HOUR_MS;
  const base = {
    start: new Date(start).toISOString(),
    bytes: row?.bytes ?? 0,
    recording: start <= now && now < end,
    future: start > now,
  };
  const first = row?.firstEpoch?.getTime();
  const last = row?.lastEpoch?.getTime();
  if (first === undefined || last === undefined || last < start || first >= end) {
    return { ...base, status: 'none', percent: 0 };
  }
  const from = Math.max(first, start);
  const to = Math.min(last, end);
  if (from - start <= EDGE_MS && end - to <= EDGE_MS) return { ...base, status: 'full', percent: 100 };
  const percent = Math.min(99, Math.max(1, Math.round(((to - from + 1000) / HOUR_MS) * 100)));
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
