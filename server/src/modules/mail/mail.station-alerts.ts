import { nearMountpoint } from '@portal/contract';
import { type RawBuilder, type Selectable, sql } from 'kysely';
import type { Database } from '../../db/client.ts';
import type { DB } from '../../db/schema.ts';
import { periodic } from '../../shared/periodic.ts';
import type { WebhookFact, WebhookOwner } from '../webhooks/index.ts';
import type { Mailer } from './mail.service.ts';
import type { WorkerLog } from './mail.worker.ts';

const DAY_MS = 86_400_000;
/** Rovers served by a station in this window before an incident are told about it. */
export const SERVED_WINDOW_MS = 30 * DAY_MS;
/** A nearest-station rover whose last GGA lay this close to the station worked near it (a usual RTK baseline). */
export const SERVED_NEAR_KM = 30;
/** The default grace: a station down for less than this is a blip, and nobody is mailed. */
export const DEFAULT_GRACE_MS = 5 * 60_000;
/** An incident that began longer ago than this is history: a first start does not mail about last week's outage. */
const NEWS_MS = DAY_MS;
/** Incidents opened or closed per run, one transaction each: a network-wide outage is worked off over a few runs. */
const BATCH = 20;

type StateChange = Selectable<DB['station_state_changes']>;
type Station = Selectable<DB['stations']>;
type Network = Selectable<DB['networks']>;
type StationAlert = Selectable<DB['station_alerts']>;
type NetworkAlert = Selectable<DB['network_alerts']>;
type Account = Selectable<DB['ntrip_accounts']>;

/** The network columns both station rows carry, renamed in the SELECT. */
interface NetworkNames {
  network_name: Network['name'];
  network_slug: Network['slug'];
}

type OpeningRow = Pick<StateChange, 'station_id' | 'at' | 'online' | 'causes'> &
  Pick<Station, 'mountpoint' | 'latitude' | 'longitude'> &
  NetworkNames & { change_id: StateChange['id'] };

type ClosingRow = Pick<StationAlert, 'station_id' | 'change_id' | 'started_at' | 'recipients' | 'event_owners'> &
  Pick<Station, 'mountpoint'> &
  NetworkNames & { ended_at: StateChange['at'] };

type NetworkOpeningRow = Pick<Network, 'name' | 'slug'> & {
  network_id: Network['id'];
  started_at: StationAlert['started_at'];
};

type NetworkClosingRow = Pick<NetworkAlert, 'id' | 'started_at' | 'event_owners' | 'ended_at'> &
  Pick<Network, 'name' | 'slug'>;

/** Who a mail is for: a customer the station served, the owner of its base (its feed), or an admin. */
type StationAlertAudience = 'customer' | 'owner' | 'operator';

/** What a run did; tests read it, the log gets it when something was queued. */
export interface StationAlertRun {
  opened: number;
  closed: number;
  mails: number;
  /** Network outages begun and ended (every station of the network in an alerted incident). */
  networksDown: number;
  networksUp: number;
}

/** Reports facts to webhooks in the caller's transaction (the webhooks module's recorder). */
export type WebhookEventSink = (trx: Database, facts: WebhookFact[]) => Promise<void>;

const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/** Whose webhooks hear of an account's rovers: its organisation's when it has one, else its owner's. */
function ownersOf(rows: { user_id: string; organization_id: string | null }[]): WebhookOwner[] {
  const seen = new Set<string>();
  const owners: WebhookOwner[] = [];
  for (const r of rows) {
    const owner: WebhookOwner = r.organization_id ? { organizationId: r.organization_id } : { userId: r.user_id };
    const key = JSON.stringify(owner);
    if (seen.has(key)) continue;
    seen.add(key);
    owners.push(owner);
  }
  return owners;
}

/**
 * Outage alerts (issue 33, docs/adr/0070-outage-alerts.md). An incident is a station's time out of order: from the
 * first recorded state (station_state_changes, written by a trigger) that is offline or failing integrity after one
 * that was neither, to the next state that is neither. Once an incident has lasted the grace, the customers whose
 * rovers the station served in the 30 days before, the owner of its base and the admins get a "down" mail; when it ends, the same people a
 * "back" mail. Each incident is claimed by inserting its station_alerts row in the transaction that queues its mails,
 * so of two API processes running the check at once one queues them and the other finds the row and skips; the
 * mails' idempotency keys (station, incident, user) would stop a copy anyway.
 */
export function createStationAlerts(deps: {
  db: Database;
  mailer: Mailer;
  clock?: () => Date;
  log: WorkerLog;
  graceMs?: number;
  intervalMs?: number;
  /** Station and network down/up events for the webhooks of the accounts' owners (issue 37). */
  events?: WebhookEventSink;
}) {
  const { db, mailer } = deps;
  const events: WebhookEventSink = deps.events ?? (async () => {});
  const clock = deps.clock ?? (() => new Date());
  const graceMs = deps.graceMs ?? DEFAULT_GRACE_MS;

  /** Open incidents that have lasted the grace and began within the news window, not yet claimed. */
  const openings = (now: Date) =>
    sql<OpeningRow>`
      SELECT c.station_id, c.id AS change_id, c.at, c.online, c.causes, st.mountpoint, st.latitude, st.longitude,
        n.name AS network_name, n.slug AS network_slug
      FROM station_state_changes c
      JOIN stations st ON st.id = c.station_id
      JOIN networks n ON n.id = st.network_id
      WHERE c.at > ${new Date(now.getTime() - NEWS_MS)} AND c.at <= ${new Date(now.getTime() - graceMs)}
        AND NOT (c.online AND c.integrity <> 'failing')
        AND (SELECT p.online AND p.integrity <> 'failing' FROM station_state_changes p
             WHERE p.station_id = c.station_id AND p.id < c.id ORDER BY p.id DESC LIMIT 1) IS TRUE
        AND NOT EXISTS (SELECT 1 FROM station_state_changes g
             WHERE g.station_id = c.station_id AND g.id > c.id AND g.online AND g.integrity <> 'failing')
        AND NOT EXISTS (SELECT 1 FROM station_alerts a WHERE a.station_id = c.station_id AND a.change_id = c.id)
      ORDER BY c.at LIMIT ${BATCH}`.execute(db);

  /** Alerted incidents whose station has been good since; the end is the first good state after the start. */
  const closings = () =>
    sql<ClosingRow>`
      SELECT a.station_id, a.change_id, a.started_at, a.recipients, a.event_owners, st.mountpoint,
        n.name AS network_name, n.slug AS network_slug,
        (SELECT min(g.at) FROM station_state_changes g
         WHERE g.station_id = a.station_id AND g.id > a.change_id AND g.online AND g.integrity <> 'failing') AS ended_at
      FROM station_alerts a
      JOIN stations st ON st.id = a.station_id
      JOIN networks n ON n.id = st.network_id
      WHERE a.up_queued_at IS NULL
        AND EXISTS (SELECT 1 FROM station_state_changes g
          WHERE g.station_id = a.station_id AND g.id > a.change_id AND g.online AND g.integrity <> 'failing')
      ORDER BY a.started_at LIMIT ${BATCH}`.execute(db);

  /**
   * The owners (and organisations) of accounts of users not disabled with a session that `on` picks (of ntrip_sessions
   * s) in the SERVED_WINDOW_MS before the incident began.
   */
  async function sessionOwners(trx: Database, startedAt: Date, on: RawBuilder<unknown>) {
    const r = await sql<{ user_id: Account['owner_user_id'] } & Pick<Account, 'organization_id'>>`
      SELECT DISTINCT a.owner_user_id AS user_id, a.organization_id
      FROM ntrip_sessions s
      JOIN ntrip_accounts a ON a.id = s.account_id
      JOIN users u ON u.id = a.owner_user_id
      WHERE s.ended_at >= ${new Date(startedAt.getTime() - SERVED_WINDOW_MS)} AND s.started_at <= ${startedAt}
        AND NOT u.disabled AND (${on})
      ORDER BY 1, 2`.execute(trx);
    return r.rows;
  }

  /**
   * Who is told, as user ids with their audience: the owners of NTRIP accounts with a session in the 30 days before
   * the incident on the station's mountpoint, served by it (a nearest-station session's last choice), or on the
   * network's nearest-station mountpoint with a last GGA within SERVED_NEAR_KM; the owner of the station's feed (the
   * base's owner); and every admin. Disabled users are left out. Each gets one mail: an admin the admins', an owner
   * who is also a customer the owners'.
   */
  async function recipientsOf(trx: Database, row: OpeningRow, startedAt: Date) {
    const dLat = SERVED_NEAR_KM / 111;
    const dLon = SERVED_NEAR_KM / (111 * Math.max(0.01, Math.cos((row.latitude * Math.PI) / 180)));
    const customers = await sessionOwners(
      trx,
      startedAt,
      sql`lower(s.mountpoint) = lower(${row.mountpoint}) OR lower(s.served_station) = lower(${row.mountpoint})
        OR (upper(s.mountpoint) = ${nearMountpoint(row.network_slug)}
          AND s.last_gga_lat BETWEEN ${row.latitude - dLat} AND ${row.latitude + dLat}
          AND s.last_gga_lon BETWEEN ${row.longitude - dLon} AND ${row.longitude + dLon}
          AND 2 * 6371 * asin(sqrt(
            power(sin(radians(s.last_gga_lat - ${row.latitude}) / 2), 2)
            + cos(radians(s.last_gga_lat)) * cos(radians(${row.latitude}))
              * power(sin(radians(s.last_gga_lon - ${row.longitude}) / 2), 2))) <= ${SERVED_NEAR_KM})`,
    );
    const baseOwners = await sql<Pick<Selectable<DB['users']>, 'id'>>`
      SELECT f.owner_user_id AS id FROM feeds f JOIN users u ON u.id = f.owner_user_id
      WHERE f.station_id = ${row.station_id} AND NOT u.disabled`.execute(trx);
    const admins = await sql<Pick<Selectable<DB['users']>, 'id'>>`
      SELECT id FROM users WHERE is_admin AND NOT disabled ORDER BY id`.execute(trx);
    const audience = new Map<string, StationAlertAudience>();
    for (const c of customers) audience.set(c.user_id, 'customer');
    for (const o of baseOwners.rows) audience.set(o.id, 'owner');
    for (const a of admins.rows) audience.set(a.id, 'operator');
    return { audience, owners: ownersOf(customers) };
  }

  async function open(row: OpeningRow, now: Date): Promise<number> {
    const startedAt = new Date(row.at);
    return db.transaction().execute(async (trx) => {
      // The claim: the process whose insert lands queues the mails; another finds the row (after this commit) and
      // adds nothing.
      const claimed = await trx
        .insertInto('station_alerts')
        .values({
          station_id: row.station_id,
          change_id: Number(row.change_id),
          started_at: startedAt,
          down_queued_at: now,
        })
        .onConflict((oc) => oc.columns(['station_id', 'change_id']).doNothing())
        .returning('station_id')
        .executeTakeFirst();
      if (!claimed) return 0;
      const sent: string[] = [];
      const { audience: recipients, owners } = await recipientsOf(trx, row, startedAt);
      for (const [userId, audience] of recipients) {
        const queued = await mailer.queue(trx, {
          key: `station-down:${row.station_id}:${row.change_id}:${userId}`,
          userId,
          content: {
            kind: 'station_down',
            audience,
            station: row.mountpoint,
            network: row.network_name,
            nearMountpoint: nearMountpoint(row.network_slug),
            offline: !row.online,
            causes: row.causes ? row.causes.split(',') : [],
            since: startedAt.toISOString(),
          },
          data: { audience },
        });
        if (queued) sent.push(userId);
      }
      await events(
        trx,
        owners.map((owner) => ({
          owner,
          event: 'station.down',
          key: `station-down:${row.station_id}:${row.change_id}`,
          data: {
            station: row.mountpoint,
            network: { slug: row.network_slug, name: row.network_name },
            offline: !row.online,
            causes: row.causes ? row.causes.split(',') : [],
            since: startedAt.toISOString(),
          },
        })),
      );
      await trx
        .updateTable('station_alerts')
        .set({ recipients: JSON.stringify(sent), event_owners: JSON.stringify(owners) })
        .where('station_id', '=', row.station_id)
        .where('change_id', '=', Number(row.change_id))
        .execute();
      return sent.length;
    });
  }

  async function close(row: ClosingRow, now: Date): Promise<number> {
    return db.transaction().execute(async (trx) => {
      // The claim of the end: only the update that finds up_queued_at empty queues the "back" mails.
      const claimed = await trx
        .updateTable('station_alerts')
        .set({ ended_at: new Date(row.ended_at), up_queued_at: now })
        .where('station_id', '=', row.station_id)
        .where('change_id', '=', Number(row.change_id))
        .where('up_queued_at', 'is', null)
        .returning(['recipients', 'event_owners'])
        .executeTakeFirst();
      if (!claimed) return 0;
      await events(
        trx,
        json<WebhookOwner[]>(claimed.event_owners).map((owner) => ({
          owner,
          event: 'station.up',
          key: `station-up:${row.station_id}:${row.change_id}`,
          data: {
            station: row.mountpoint,
            network: { slug: row.network_slug, name: row.network_name },
            since: new Date(row.started_at).toISOString(),
            at: new Date(row.ended_at).toISOString(),
          },
        })),
      );
      const recipients: string[] =
        typeof claimed.recipients === 'string' ? JSON.parse(claimed.recipients) : claimed.recipients;
      let count = 0;
      for (const userId of recipients) {
        // The audience the "down" mail had, so an admin's and a customer's pair match.
        const down = await trx
          .selectFrom('mail_outbox')
          .select('data')
          .where('idempotency_key', '=', `station-down:${row.station_id}:${row.change_id}:${userId}`)
          .executeTakeFirst();
        const data = typeof down?.data === 'string' ? JSON.parse(down.data) : down?.data;
        const queued = await mailer.queue(trx, {
          key: `station-up:${row.station_id}:${row.change_id}:${userId}`,
          userId,
          content: {
            kind: 'station_up',
            audience: (data?.audience === 'operator' || data?.audience === 'owner'
              ? data.audience
              : 'customer') as StationAlertAudience,
            station: row.mountpoint,
            network: row.network_name,
            since: new Date(row.started_at).toISOString(),
            at: new Date(row.ended_at).toISOString(),
          },
        });
        if (queued) count++;
      }
      return count;
    });
  }

  /**
   * Networks whose every station is in an alerted incident and that have no open outage: down since the last of
   * those incidents began.
   */
  const networkOpenings = () =>
    sql<NetworkOpeningRow>`
      SELECT n.id AS network_id, n.name, n.slug, max(a.started_at) AS started_at
      FROM networks n
      JOIN stations st ON st.network_id = n.id
      LEFT JOIN station_alerts a ON a.station_id = st.id AND a.up_queued_at IS NULL
      WHERE n.status <> 'retired'
        AND NOT EXISTS (SELECT 1 FROM network_alerts na WHERE na.network_id = n.id AND na.ended_at IS NULL)
      GROUP BY n.id, n.name, n.slug
      HAVING count(DISTINCT st.id) = count(DISTINCT a.station_id)
      ORDER BY 4 LIMIT ${BATCH}`.execute(db);

  /** Open network outages with a station out of incident again; the end is when the first one came back. */
  const networkClosings = () =>
    sql<NetworkClosingRow>`
      SELECT na.id, n.name, n.slug, na.started_at, na.event_owners,
        (SELECT min(a.ended_at) FROM station_alerts a JOIN stations st ON st.id = a.station_id
         WHERE st.network_id = na.network_id AND a.ended_at >= na.started_at) AS ended_at
      FROM network_alerts na
      JOIN networks n ON n.id = na.network_id
      WHERE na.ended_at IS NULL
        AND EXISTS (SELECT 1 FROM stations st WHERE st.network_id = na.network_id
          AND NOT EXISTS (SELECT 1 FROM station_alerts a WHERE a.station_id = st.id AND a.up_queued_at IS NULL))
      ORDER BY na.started_at LIMIT ${BATCH}`.execute(db);

  /** The owners of accounts with a session on the network (a station or its nearest-station mountpoint) in the window. */
  async function networkOwners(trx: Database, row: NetworkOpeningRow, startedAt: Date) {
    return ownersOf(
      await sessionOwners(
        trx,
        startedAt,
        sql`upper(s.mountpoint) = ${nearMountpoint(row.slug)}
          OR EXISTS (SELECT 1 FROM stations st WHERE st.network_id = ${row.network_id}
            AND lower(st.mountpoint) = lower(s.mountpoint))`,
      ),
    );
  }

  async function openNetwork(row: NetworkOpeningRow): Promise<void> {
    const startedAt = new Date(row.started_at);
    await db.transaction().execute(async (trx) => {
      // The claim: one open outage per network (a unique index), so of two processes one records the events.
      const claimed = await sql<Pick<NetworkAlert, 'id'>>`
        INSERT INTO network_alerts (network_id, started_at) VALUES (${row.network_id}, ${startedAt})
        ON CONFLICT (network_id) WHERE ended_at IS NULL DO NOTHING RETURNING id`.execute(trx);
      const id = claimed.rows[0]?.id;
      if (!id) return;
      const owners = await networkOwners(trx, row, startedAt);
      await events(
        trx,
        owners.map((owner) => ({
          owner,
          event: 'network.down',
          key: `network-down:${id}`,
          data: { network: { slug: row.slug, name: row.name }, since: startedAt.toISOString() },
        })),
      );
      await trx
        .updateTable('network_alerts')
        .set({ event_owners: JSON.stringify(owners) })
        .where('id', '=', id)
        .execute();
    });
  }

  async function closeNetwork(row: NetworkClosingRow, now: Date): Promise<void> {
    const endedAt = row.ended_at ? new Date(row.ended_at) : now;
    await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('network_alerts')
        .set({ ended_at: endedAt })
        .where('id', '=', row.id)
        .where('ended_at', 'is', null)
        .returning('event_owners')
        .executeTakeFirst();
      if (!claimed) return;
      await events(
        trx,
        json<WebhookOwner[]>(claimed.event_owners).map((owner) => ({
          owner,
          event: 'network.up',
          key: `network-up:${row.id}`,
          data: {
            network: { slug: row.slug, name: row.name },
            since: new Date(row.started_at).toISOString(),
            at: endedAt.toISOString(),
          },
        })),
      );
    });
  }

  async function run(): Promise<StationAlertRun> {
    const now = clock();
    const result: StationAlertRun = { opened: 0, closed: 0, mails: 0, networksDown: 0, networksUp: 0 };
    // Ends first: a station that came back and failed again is told "back" before "down" again.
    for (const row of (await closings()).rows) {
      result.mails += await close(row, now);
      result.closed++;
    }
    for (const row of (await openings(now)).rows) {
      result.mails += await open(row, now);
      result.opened++;
    }
    // After the stations: a network is down when all its stations are in an alerted incident, up when one is not.
    for (const row of (await networkClosings()).rows) {
      await closeNetwork(row, now);
      result.networksUp++;
    }
    for (const row of (await networkOpenings()).rows) {
      await openNetwork(row);
      result.networksDown++;
    }
    return result;
  }

  return {
    run,
    ...periodic(
      async () => {
        const r = await run();
        if (r.mails > 0) deps.log.info(r, 'station outage alerts queued');
      },
      {
        intervalMs: deps.intervalMs ?? 60_000,
        runAtStart: true,
        onError: (err) => deps.log.error({ err }, 'station outage alerts could not be checked'),
      },
    ),
  };
}
