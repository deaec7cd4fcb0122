import type { LedgerNoteCode } from '@portal/contract';
import {
  type AdminRinexNetwork,
  type AdminRinexNetworkPatch,
  type AdminRinexStation,
  type AdminRinexTotals,
  HOUR_MS,
  hourFloor,
  hoursOf,
  MAX_RUNNING_RINEX_JOBS,
  NEAREST_STATIONS,
  type NearestStation,
  RINEX_COVERAGE_DAYS,
  type RinexAvailability,
  type RinexJob,
  type RinexStation,
  type RinexSystem,
  rinexWindowProblem,
} from '@portal/contract';
import type { Database } from '../../db/client.ts';
import type { Actor } from '../../shared/actor.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../shared/errors.ts';
import type { OrganizationRoles } from '../billing/index.ts';
import type { LinkSigner } from './rinex.links.ts';
import {
  canBuyForOrganization,
  canReadJob,
  chargeFor,
  classifyHour,
  type IndexedHour,
  priceOf,
  rinexPricePerHour,
} from './rinex.policy.ts';
import type { ArchivedHour, JobRow, RinexRepo, StationRow } from './rinex.repo.ts';
import type { RinexResultStore } from './rinex.results.ts';

/** The token ledger as this module uses it: billing's `TokenLedger.append`, inside our transaction. */
export interface RinexLedger {
  append(
    entry: {
      userId: string;
      kind: 'rinex_spend' | 'refund';
      delta: number;
      referenceId: string;
      note?: string;
      noteCode?: LedgerNoteCode;
      noteParams?: Record<string, string | number>;
      createdBy?: string;
    },
    trx: Database,
  ): Promise<{ applied: boolean; balance: number }>;
  balance(userId: string): Promise<number>;
}

export interface RinexServiceDeps {
  repo: RinexRepo;
  ledger: RinexLedger;
  organizations: OrganizationRoles;
  results: RinexResultStore;
  signer: LinkSigner;
  /** Tells the job runner there is work (after a job is made). */
  queue: { kick(): void };
  /** The portal's public address: signed links are absolute. */
  publicUrl: string;
  clock?: () => Date;
}

export type RinexService = ReturnType<typeof createRinexService>;

const HISTORY_LIMIT = 100;

/** The ledger refused the spend; answered as 402 once the transaction has rolled back. */
class ShortOfTokens extends Error {
  constructor(readonly needed: number) {
    super('insufficient tokens');
  }
}

function presentStation(s: StationRow): RinexStation {
  return {
    id: s.id,
    mountpoint: s.mountpoint,
    identifier: s.identifier,
    country: s.country,
    networkId: s.network_id,
    networkName: s.network_name,
    latitude: Number(s.latitude),
    longitude: Number(s.longitude),
  };
}

/** Index rows merged per hour (a station renamed mid-hour was archived under both names). */
function byHour(rows: ArchivedHour[]): Map<number, IndexedHour> {
  const out = new Map<number, IndexedHour>();
  for (const r of rows) {
    const key = r.hour.getTime();
    const seen = out.get(key);
    if (!seen) {
      out.set(key, { ...r });
      continue;
    }
    seen.bytes += r.bytes;
    seen.epochMinutes = [...seen.epochMinutes, ...r.epochMinutes];
  }
  return out;
}

export function createRinexService(deps: RinexServiceDeps) {
  const { repo, ledger, signer } = deps;
  const clock = deps.clock ?? (() => new Date());
  const publicUrl = deps.publicUrl.replace(/\/$/, '');

  async function stationOr404(mountpoint: string): Promise<StationRow> {
    const station = await repo.station(mountpoint);
    if (!station) throw notFound('Station');
    return station;
  }

  function checkWindow(from: Date, to: Date): void {
    const problem = rinexWindowProblem(from, to, clock());
    if (problem) throw badRequest(problem.code, problem.message, problem.field);
  }

  /** Each hour of the window as the archive holds it, with the archived rows behind it. */
  async function hoursOfWindow(station: StationRow, from: Date, to: Date) {
    const rows = await repo.archivedHours(station.id, from, to);
    const merged = byHour(rows);
    const now = clock().getTime();
    const hours = hoursOf(from, to).map((h) => classifyHour(h, merged.get(h), now));
    const withData = hours.filter((h) => h.status !== 'none').map((h) => Date.parse(h.start));
    const jobHours = rows
      .filter((r) => withData.includes(r.hour.getTime()))
      .map((r) => ({ mountpoint: r.mountpoint, hour: r.hour.toISOString() }));
    return { hours, withData, jobHours };
  }

  async function pricing(actor: Actor, station: StationRow, byAdmin: boolean) {
    const pricePerHour = rinexPricePerHour({ ...station, status: station.network_status });
    const planCovers = byAdmin ? false : await repo.planCovers(actor.userId, station.network_id, clock());
    return { pricePerHour, charge: chargeFor({ byAdmin, planCovers, pricePerHour }) };
  }

  function downloadUrl(job: JobRow): string | null {
    if (job.status !== 'done' || !job.expires_at || job.expires_at <= clock()) return null;
    const { expires, signature } = signer.sign(job.id, job.expires_at);
    return `${publicUrl}/api/rinex/jobs/${job.id}/download?expires=${expires}&signature=${signature}`;
  }

  function present(job: JobRow): RinexJob {
    const expired =
      job.status === 'expired' || (job.status === 'done' && !!job.expires_at && job.expires_at <= clock());
    const status = expired ? 'expired' : job.status;
    return {
      id: job.id,
      station: { id: job.station_id, mountpoint: job.mountpoint, networkName: job.network_name },
      from: job.window_start.toISOString(),
      to: job.window_end.toISOString(),
      interval: job.interval_seconds,
      systems: job.systems.split('') as RinexSystem[],
      status,
      progress: status === 'done' || status === 'expired' ? 1 : job.progress,
      hoursTotal: job.hours_total,
      hoursWithData: job.hours_with_data,
      charge: job.charge,
      tokensCharged: job.tokens_charged,
      tokensRefunded: job.tokens_refunded,
      organizationId: job.organization_id,
      createdByAdmin: job.created_by_admin !== null,
      error: job.error_code ? { code: job.error_code, message: job.error_message ?? '' } : null,
      result:
        job.result_name && status === 'done'
          ? {
              fileName: job.result_name,
              bytes: Number(job.result_bytes ?? 0),
              epochs: job.result_epochs ?? 0,
              files: job.result_files ?? [],
            }
          : null,
      downloadUrl: status === 'done' ? downloadUrl(job) : null,
      expiresAt: job.expires_at?.toISOString() ?? null,
      createdAt: job.created_at.toISOString(),
      startedAt: job.started_at?.toISOString() ?? null,
      finishedAt: job.finished_at?.toISOString() ?? null,
    };
  }

  /** The job if the caller may read it: 404 for an unknown id, 403 for someone else's. */
  async function readable(actor: Actor, id: string): Promise<JobRow> {
    const job = await repo.job(id);
    if (!job) throw notFound('RINEX job');
    const organizations = job.organization_id ? await repo.organizationsOf(actor.userId) : [];
    if (!canReadJob(actor, job, organizations)) throw forbidden('This RINEX job is not yours.');
    return job;
  }

  interface CreateInput {
    station: string;
    from: string;
    to: string;
    interval: number;
    systems: RinexSystem[];
    orgId?: string;
  }

  async function create(actor: Actor, body: CreateInput, ownerUserId: string, byAdmin: boolean): Promise<RinexJob> {
    const from = new Date(body.from);
    const to = new Date(body.to);
    checkWindow(from, to);
    const station = await stationOr404(body.station);
    if (body.orgId) {
      const role = await deps.organizations.roleOf(body.orgId, actor.userId);
      if (!role) throw notFound('Organisation');
      if (!canBuyForOrganization(role)) {
        throw forbidden("Only your organisation's owners and admins can buy for it.");
      }
    }
    // The index is read before the transaction: it only grows, so what is charged is what the archive held then.
    const { hours, withData, jobHours } = await hoursOfWindow(station, from, to);
    if (withData.length === 0) {
      throw conflict('no_data_in_window', 'The archive holds no data of this station in these hours.');
    }
    const { pricePerHour, charge } = await pricing(actor, station, byAdmin);
    if (charge === 'not_for_sale') {
      throw conflict('rinex_not_for_sale', "RINEX of this station's network is not for sale.");
    }
    const price = priceOf(charge, pricePerHour, withData.length);
    const systems = [...body.systems].sort((a, b) => 'GRECJIS'.indexOf(a) - 'GRECJIS'.indexOf(b)).join('');
    const job = await repo
      .transaction(async (trx) => {
        if (!(await repo.lockUser(ownerUserId, trx))) throw notFound('User');
        if ((await repo.countOpenJobs(ownerUserId, trx)) >= MAX_RUNNING_RINEX_JOBS) {
          throw new AppError(
            429,
            'too_many_rinex_jobs',
            `You already have ${MAX_RUNNING_RINEX_JOBS} RINEX jobs running. Wait until one has finished.`,
          );
        }
        const job = await repo.insertJob(
          {
            user_id: ownerUserId,
            organization_id: body.orgId ?? null,
            created_by_admin: byAdmin ? actor.userId : null,
            station_id: station.id,
            mountpoint: station.mountpoint,
            network_name: station.network_name,
            window_start: from,
            window_end: to,
            interval_seconds: body.interval,
            systems,
            hours: jobHours,
            hours_total: hours.length,
            hours_with_data: withData.length,
            charge,
            tokens_charged: price,
          },
          trx,
        );
        if (price > 0) {
          try {
            await ledger.append(
              {
                userId: ownerUserId,
                kind: 'rinex_spend',
                delta: -price,
                referenceId: job.id,
                note: `RINEX ${station.mountpoint}, ${withData.length} hour${withData.length === 1 ? '' : 's'} from ${from.toISOString()}`,
                noteCode: 'rinex',
                noteParams: { mountpoint: station.mountpoint, count: withData.length, at: from.toISOString() },
              },
              trx,
            );
          } catch (err) {
            if (err instanceof AppError && err.code === 'insufficient_tokens') throw new ShortOfTokens(price);
            throw err;
          }
        }
        return job;
      })
      .catch(async (err) => {
        if (!(err instanceof ShortOfTokens)) throw err;
        const balance = await ledger.balance(ownerUserId);
        throw new AppError(
          402,
          'insufficient_tokens',
          `Not enough tokens: ${err.needed} needed, ${balance} available.`,
          undefined,
          { needed: err.needed, balance },
        );
      });
    deps.queue.kick();
    return present(job);
  }

  return {
    async availability(actor: Actor, query: { station: string; from: string; to: string }): Promise<RinexAvailability> {
      const from = new Date(query.from);
      const to = new Date(query.to);
      // Availability may look at later hours of the day too (they show as future): only the shape is checked.
      const problem = rinexWindowProblem(from, to, new Date(Math.max(to.getTime(), clock().getTime())));
      if (problem) throw badRequest(problem.code, problem.message, problem.field);
      const station = await stationOr404(query.station);
      const { hours, withData } = await hoursOfWindow(station, from, to);
      const { pricePerHour, charge } = await pricing(actor, station, false);
      return {
        station: presentStation(station),
        from: from.toISOString(),
        to: to.toISOString(),
        hours,
        hoursWithData: withData.length,
        charge,
        pricePerHour,
        price: priceOf(charge, pricePerHour, withData.length),
      };
    },

    async nearest(lat: number, lon: number): Promise<NearestStation[]> {
      const rows = await repo.nearest(lat, lon, NEAREST_STATIONS);
      return rows.map((r) => ({ ...presentStation(r), distanceKm: Math.round(r.distance_km * 100) / 100 }));
    },

    create(actor: Actor, body: CreateInput): Promise<RinexJob> {
      return create(actor, body, actor.userId, false);
    },

    async list(actor: Actor): Promise<RinexJob[]> {
      const organizations = await repo.organizationsOf(actor.userId);
      return (await repo.jobsOf(actor.userId, organizations, HISTORY_LIMIT)).map(present);
    },

    async get(actor: Actor, id: string): Promise<RinexJob> {
      return present(await readable(actor, id));
    },

    /**
     * The zip of a finished job, for a caller with the owner's token (`actor`) or a signed link. Unknown ids are
     * 404 either way; someone else's job 403; a link past its time or with a wrong signature 403.
     */
    async download(
      actor: Actor | null,
      id: string,
      link: { expires?: number; signature?: string },
    ): Promise<{ name: string; bytes: number; stream: NodeJS.ReadableStream }> {
      let job: JobRow;
      if (link.expires !== undefined && link.signature !== undefined) {
        const found = await repo.job(id);
        if (!found) throw notFound('RINEX job');
        const verdict = signer.check(id, link.expires, link.signature, clock());
        if (verdict === 'invalid') throw new AppError(403, 'link_invalid', 'This download link is not valid.');
        if (verdict === 'expired') throw new AppError(403, 'link_expired', 'This download link has expired.');
        job = found;
      } else {
        if (!actor) throw new AppError(401, 'unauthenticated', 'User is not logged in');
        job = await readable(actor, id);
      }
      const expired = job.status === 'expired' || (job.expires_at !== null && job.expires_at <= clock());
      if (expired) throw new AppError(410, 'rinex_result_expired', 'This RINEX download has expired.');
      if (job.status !== 'done' || !job.result_name) {
        throw conflict('rinex_job_not_ready', 'This RINEX job has no download (it has not finished, or failed).');
      }
      const opened = await deps.results.open(job.id);
      if (!opened) throw new AppError(410, 'rinex_result_expired', 'This RINEX download is no longer kept.');
      return { name: job.result_name, bytes: opened.bytes, stream: opened.stream };
    },

    /**
     * A job that failed: marked failed and its tokens given back with a refund entry, in one transaction, once
     * (a job that is no longer queued or running is left as it is).
     */
    async fail(jobId: string, error: { code: string; message: string }): Promise<void> {
      await repo.transaction(async (trx) => {
        const job = await repo.failJob(jobId, error, clock(), trx);
        if (!job || job.tokens_charged === 0) return;
        await ledger.append(
          {
            userId: job.user_id,
            kind: 'refund',
            delta: job.tokens_charged,
            referenceId: job.id,
            note: `RINEX ${job.mountpoint}: the job failed (${error.code})`,
            noteCode: 'rinex_failed',
            noteParams: { mountpoint: job.mountpoint, reason: error.code },
          },
          trx,
        );
        await repo.setRefunded(job.id, job.tokens_charged, trx);
      });
    },

    // --- admin ---

    async adminCreate(actor: Actor, body: CreateInput & { userId: string }): Promise<RinexJob> {
      if (!actor.isAdmin) throw forbidden();
      if (!(await repo.userExists(body.userId))) throw notFound('User');
      return create(actor, { ...body, orgId: undefined }, body.userId, true);
    },

    async adminJobs(actor: Actor, userId: string | undefined): Promise<RinexJob[]> {
      if (!actor.isAdmin) throw forbidden();
      return (await repo.allJobs(userId, HISTORY_LIMIT)).map(present);
    },

    async adminNetworks(actor: Actor): Promise<AdminRinexNetwork[]> {
      if (!actor.isAdmin) throw forbidden();
      return (await repo.networks()).map((n) => ({
        id: n.id,
        slug: n.slug,
        name: n.name,
        status: n.status,
        tokenPricePerDay: n.token_price_per_day,
        rinexPricePerHour: n.rinex_price_per_hour,
        effectivePricePerHour: rinexPricePerHour(n),
        retentionDays: n.archive_retention_days,
        stations: n.stations,
        archivedHours: n.archived_hours,
        archivedBytes: n.archived_bytes,
      }));
    },

    async adminUpdateNetwork(actor: Actor, id: string, patch: AdminRinexNetworkPatch): Promise<AdminRinexNetwork> {
      if (!actor.isAdmin) throw forbidden();
      const changed = await repo.updateNetwork(id, {
        ...(patch.rinexPricePerHour !== undefined && { rinex_price_per_hour: patch.rinexPricePerHour }),
        ...(patch.retentionDays !== undefined && { archive_retention_days: patch.retentionDays }),
      });
      if (!changed) throw notFound('Network');
      const network = (await this.adminNetworks(actor)).find((n) => n.id === id);
      if (!network) throw notFound('Network');
      return network;
    },

    async adminStations(actor: Actor, networkId: string): Promise<AdminRinexStation[]> {
      if (!actor.isAdmin) throw forbidden();
      if (!(await repo.networkExists(networkId))) throw notFound('Network');
      const now = clock().getTime();
      const end = hourFloor(now) + HOUR_MS;
      const start = end - RINEX_COVERAGE_DAYS * 24 * HOUR_MS;
      const [stations, rows, totals] = await Promise.all([
        repo.stationsOfNetwork(networkId),
        repo.networkHours(networkId, new Date(start)),
        repo.stationTotals(networkId),
      ]);
      const perStation = new Map<string, typeof rows>();
      for (const r of rows) perStation.set(r.stationId, [...(perStation.get(r.stationId) ?? []), r]);
      const strip = hoursOf(new Date(start), new Date(end));
      return stations.map((s) => {
        const merged = byHour((perStation.get(s.id) ?? []).map((r) => ({ ...r, mountpoint: s.mountpoint })));
        const total = totals.get(s.id);
        return {
          id: s.id,
          mountpoint: s.mountpoint,
          coverage: strip.map((h) => classifyHour(h, merged.get(h), now).percent),
          coverageFrom: new Date(start).toISOString(),
          archivedHours: total?.hours ?? 0,
          bytes: total?.bytes ?? 0,
          storedBytes: total?.storedBytes ?? 0,
        };
      });
    },

    async adminTotals(actor: Actor): Promise<AdminRinexTotals> {
      if (!actor.isAdmin) throw forbidden();
      const t = await repo.totals();
      return {
        ...t,
        oldestHour: t.oldestHour?.toISOString() ?? null,
        newestHour: t.newestHour?.toISOString() ?? null,
      };
    },
  };
}
