import {
  type DayStrip,
  type Incident,
  type NetworkStationDays,
  type NetworkStatus,
  STATUS_FEED_INCIDENTS,
  STATUS_NETWORK_INCIDENTS,
  STATUS_WINDOW_DAYS,
  type StationStatus,
  type Status,
} from '@portal/contract';
import type { ContentLanguage } from '../../shared/language.ts';
import type { IncidentRow, StationDayRow, StationScope, StatusRepo } from './status.repo.ts';

const DAY_MS = 86_400_000;

/** The UTC midnight that starts the window: today and the 89 days before it make the 90 days of the strip. */
export function windowStart(now: Date, days = STATUS_WINDOW_DAYS): Date {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - (days - 1) * DAY_MS);
}

/**
 * Percent, cut (not rounded) to two decimals: a station down for a minute in 90 days shows 99.99, never 100.
 * Null when nothing was recorded.
 */
export function percent(up: number, observed: number): number | null {
  if (observed <= 0) return null;
  return Math.floor((Math.min(up, observed) / observed) * 10_000) / 100;
}

export function presentIncident(row: IncidentRow): Incident {
  return {
    id: `${row.stationId}-${row.start.getTime()}`,
    networkSlug: row.networkSlug,
    stationId: row.stationId,
    mountpoint: row.mountpoint,
    cause: row.cause,
    codes: row.codes,
    start: row.start.toISOString(),
    end: row.end?.toISOString() ?? null,
  };
}

interface Totals {
  observed: number[];
  up: number[];
}

function emptyTotals(days: number): Totals {
  return { observed: new Array<number>(days).fill(0), up: new Array<number>(days).fill(0) };
}

function stripOf(totals: Totals, dayZero: Date): DayStrip {
  return {
    from: dayZero.toISOString().slice(0, 10),
    availability: totals.observed.map((observed, k) => percent(totals.up[k] ?? 0, observed)),
  };
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/**
 * The status page's figures from the recorded state changes (docs/adr/0068-status-page.md). Exported for the outage
 * alerts, which ask the same questions of other stations.
 */
export function createStatusService(deps: { repo: StatusRepo }) {
  const { repo } = deps;

  /** The incidents of the stations in scope that started or lasted after `since`, newest first. */
  async function incidentsSince(
    scope: StationScope,
    since: Date,
    now: Date,
    perNetwork = STATUS_NETWORK_INCIDENTS,
  ): Promise<IncidentRow[]> {
    return repo.incidents(scope, since, now, perNetwork);
  }

  /** Each station's seconds recorded and available per day of the window. */
  function totalsByStation(dayRows: StationDayRow[]): Map<string, Totals> {
    const byStation = new Map<string, Totals>();
    for (const d of dayRows) {
      if (d.day < 0 || d.day >= STATUS_WINDOW_DAYS) continue;
      let totals = byStation.get(d.stationId);
      if (!totals) {
        totals = emptyTotals(STATUS_WINDOW_DAYS);
        byStation.set(d.stationId, totals);
      }
      totals.observed[d.day] = d.observedSeconds;
      totals.up[d.day] = d.upSeconds;
    }
    return byStation;
  }

  /**
   * Every public network with its figures and stations; the stations' own day strips are left to `stationDays`
   * (docs/adr/0080: with them the answer of a few hundred stations was over a megabyte).
   */
  async function status(now: Date, language: ContentLanguage): Promise<Status> {
    const dayZero = windowStart(now);
    const [rows, dayRows, incidents] = await Promise.all([
      repo.stations({}),
      repo.stationDays({}, dayZero, now),
      repo.incidents({}, dayZero, now, STATUS_NETWORK_INCIDENTS),
    ]);
    const byStation = totalsByStation(dayRows);
    const networks = new Map<string, NetworkStatus & { totals: Totals; id: string; monitored: StationStatus[] }>();
    for (const row of rows) {
      let network = networks.get(row.network_id);
      if (!network) {
        const nl = language === 'nl' ? row.translations?.nl?.name : undefined;
        network = {
          id: row.network_id,
          slug: row.slug,
          name: nl || row.name,
          state: 'operational',
          availability: null,
          days: stripOf(emptyTotals(0), dayZero),
          stations: [],
          incidents: [],
          totals: emptyTotals(STATUS_WINDOW_DAYS),
          monitored: [],
        };
        networks.set(row.network_id, network);
      }
      const totals = byStation.get(row.station_id) ?? emptyTotals(STATUS_WINDOW_DAYS);
      for (let k = 0; k < STATUS_WINDOW_DAYS; k++) {
        network.totals.observed[k] = (network.totals.observed[k] ?? 0) + (totals.observed[k] ?? 0);
        network.totals.up[k] = (network.totals.up[k] ?? 0) + (totals.up[k] ?? 0);
      }
      const station: StationStatus = {
        id: row.station_id,
        mountpoint: row.mountpoint,
        identifier: row.identifier,
        country: row.country,
        state: !row.monitored
          ? 'unmonitored'
          : row.status !== 'online'
            ? 'offline'
            : row.integrity_state === 'failing'
              ? 'integrity'
              : 'available',
        availability: percent(sum(totals.up), sum(totals.observed)),
      };
      network.stations.push(station);
      if (row.monitored) network.monitored.push(station);
    }
    for (const incident of incidents) {
      const network = networks.get(incident.networkId);
      network?.incidents.push(presentIncident(incident));
    }
    return {
      generatedAt: now.toISOString(),
      windowDays: STATUS_WINDOW_DAYS,
      networks: [...networks.values()].map(({ totals, id: _id, monitored, ...network }) => {
        // Stations no base has fed yet are not counted as down: nothing about them is known.
        const available = monitored.filter((s) => s.state === 'available').length;
        return {
          ...network,
          state:
            monitored.length === 0
              ? 'unmonitored'
              : available === monitored.length
                ? 'operational'
                : available === 0
                  ? 'down'
                  : 'degraded',
          availability: percent(sum(totals.up), sum(totals.observed)),
          days: stripOf(totals, dayZero),
        };
      }),
    };
  }

  /** The day strips of the stations of one public network, in the order of its `stations`; undefined: no such network. */
  async function stationDays(slug: string, now: Date): Promise<NetworkStationDays | undefined> {
    const dayZero = windowStart(now);
    const rows = (await repo.stations({})).filter((r) => r.slug === slug);
    if (rows.length === 0) return undefined;
    const networkIds = [rows[0]?.network_id as string];
    const byStation = totalsByStation(await repo.stationDays({ networkIds }, dayZero, now));
    return {
      slug,
      stations: rows.map((r) => ({
        id: r.station_id,
        days: stripOf(byStation.get(r.station_id) ?? emptyTotals(STATUS_WINDOW_DAYS), dayZero),
      })),
    };
  }

  /** The newest incidents of every public network for the feeds. */
  async function feed(now: Date): Promise<Incident[]> {
    const incidents = await repo.incidents({}, windowStart(now), now, STATUS_FEED_INCIDENTS);
    return incidents.slice(0, STATUS_FEED_INCIDENTS).map(presentIncident);
  }

  return { status, stationDays, feed, incidentsSince };
}

export type StatusService = ReturnType<typeof createStatusService>;
