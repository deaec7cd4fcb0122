import {
  type IncidentFeed,
  type Network,
  type NetworkStationDays,
  type Station,
  type Status,
  stripDays,
} from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIncidentReader } from '../src/modules/status/index.ts';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

/**
 * The public status page's arithmetic (issue 33): state changes written at known moments of a moved clock give
 * known availability figures, day strips and incidents, on GET /api/status and in the incident feeds.
 */
describe(`status page on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  // The portal's clock, moved to the middle of a March day; the window starts at 2025-12-16 00:00 UTC.
  const now = new Date('2026-03-15T12:00:00Z');
  let network: Network;
  let a: Station;
  let b: Station;
  let flappy: Station;

  const call = (method: 'GET' | 'POST', url: string, user?: TestUser, payload?: object) =>
    t.app.inject({ method, url, headers: user?.headers, payload });
  const station = async (networkId: string, mountpoint: string) =>
    (
      await call('POST', '/api/admin/stations', admin, {
        networkId,
        mountpoint,
        country: 'NLD',
        latitude: 52,
        longitude: 5,
      })
    ).json() as Station;
  /** The station's history as the trigger would have written it, at the given moments. */
  async function history(stationId: string, rows: [string, boolean, 'ok' | 'warning' | 'failing', string?][]) {
    await t.db.deleteFrom('station_state_changes').where('station_id', '=', stationId).execute();
    await t.db
      .insertInto('station_state_changes')
      .values(
        rows.map(([at, online, integrity, causes]) => ({
          station_id: stationId,
          at: new Date(at),
          online,
          integrity,
          causes: causes ?? '',
        })),
      )
      .execute();
  }

  beforeAll(async () => {
    t = await buildTestApp({ status: { clock: () => now, cacheMs: 0 } });
    admin = await t.buildAdmin();
    network = (await call('POST', '/api/admin/networks', admin, { name: 'Status RTK' })).json() as Network;
    const hidden = (
      await call('POST', '/api/admin/networks', admin, { name: 'Hidden RTK', isPublic: false })
    ).json() as Network;
    const flapping = (await call('POST', '/api/admin/networks', admin, { name: 'Flappy RTK' })).json() as Network;
    a = await station(network.id, 'STAA00NLD0');
    b = await station(network.id, 'STAB00NLD0');
    flappy = await station(flapping.id, 'FLAP00NLD0');
    await station(hidden.id, 'HIDE00NLD0');
    // A: online from 10 March, 6 h offline on the 12th, 6 h failing integrity on the 14th (its reasons changing
    // halfway), offline again since 10:00 today: 14 h down out of 132 h recorded.
    await history(a.id, [
      ['2026-03-10T00:00:00Z', true, 'ok'],
      ['2026-03-12T06:00:00Z', false, 'ok'],
      ['2026-03-12T12:00:00Z', true, 'ok'],
      ['2026-03-13T08:00:00Z', true, 'warning', 'late'],
      ['2026-03-13T09:00:00Z', true, 'ok'],
      ['2026-03-14T00:00:00Z', true, 'failing', 'position_moved'],
      ['2026-03-14T03:00:00Z', true, 'failing', 'late,position_moved'],
      ['2026-03-14T06:00:00Z', true, 'ok'],
      ['2026-03-15T10:00:00Z', false, 'failing', 'position_moved'],
    ]);
    // B: online since before the window, and ever since.
    await history(b.id, [['2025-11-01T00:00:00Z', true, 'ok']]);
    await t.db.updateTable('stations').set({ status: 'online' }).where('id', '=', b.id).execute();
    // Flappy: 60 one-minute outages on 1 March, online the rest of the time since 28 February.
    const flaps: [string, boolean, 'ok'][] = [['2026-02-28T00:00:00Z', true, 'ok']];
    for (let i = 0; i < 60; i++) {
      const start = Date.parse('2026-03-01T00:00:00Z') + i * 600_000;
      flaps.push([new Date(start).toISOString(), false, 'ok'], [new Date(start + 60_000).toISOString(), true, 'ok']);
    }
    await history(flappy.id, flaps);

    const idle = (await call('POST', '/api/admin/networks', admin, { name: 'Idle RTK' })).json() as Network;
    const idleStation = await station(idle.id, 'IDLE00NLD0');
    await history(idleStation.id, [['2026-03-01T00:00:00Z', false, 'ok']]);
    const mixed = (await call('POST', '/api/admin/networks', admin, { name: 'Mixed RTK' })).json() as Network;
    const fed = await station(mixed.id, 'MIXA00NLD0');
    const unfed = await station(mixed.id, 'MIXB00NLD0');
    await history(fed.id, [['2026-03-01T00:00:00Z', true, 'ok']]);
    await t.db.updateTable('stations').set({ status: 'online' }).where('id', '=', fed.id).execute();
    await history(unfed.id, [['2026-03-01T00:00:00Z', false, 'ok']]);
    const lateNet = (await call('POST', '/api/admin/networks', admin, { name: 'Late RTK' })).json() as Network;
    const late = await station(lateNet.id, 'LATE00NLD0');
    await history(late.id, [
      ['2026-03-01T00:00:00Z', false, 'ok'],
      ['2026-03-08T00:00:00Z', true, 'ok'],
    ]);
    await t.db.updateTable('stations').set({ status: 'online' }).where('id', '=', late.id).execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gives each public network and station its availability over the recorded time, with a 90-day strip', async () => {
    const response = await call('GET', '/api/status');
    expect(response.statusCode).toBe(200);
    const status = response.json() as Status;
    expect(status.windowDays).toBe(90);
    expect(status.networks.map((n) => n.slug).sort()).toEqual([
      'flappy-rtk',
      'idle-rtk',
      'late-rtk',
      'mixed-rtk',
      'status-rtk',
    ]);
    const net = status.networks.find((n) => n.slug === network.slug);
    if (!net) throw new Error('no network');
    const [sa, sb] = net.stations;
    expect(sa?.mountpoint).toBe('STAA00NLD0');
    // 118 of 132 hours.
    expect(sa?.availability).toBe(89.39);
    expect(sa?.state).toBe('offline');
    expect(sb?.availability).toBe(100);
    expect(sb?.state).toBe('available');
    // 2266 of 2280 station-hours; one station down now.
    expect(net.availability).toBe(99.38);
    expect(net.state).toBe('degraded');

    // The stations' strips are asked for per network, in the order of its stations.
    const strips = (await call('GET', `/api/status/networks/${network.slug}/days`)).json() as NetworkStationDays;
    expect(strips.stations.map((s) => s.id)).toEqual(net.stations.map((s) => s.id));
    const saDays = stripDays(strips.stations[0]?.days ?? { from: '', availability: [] });
    const sbDays = stripDays(strips.stations[1]?.days ?? { from: '', availability: [] });
    expect(saDays).toHaveLength(90);
    expect(saDays[0]).toEqual({ date: '2025-12-16', availability: null });
    expect(saDays.at(-1)).toEqual({ date: '2026-03-15', availability: 83.33 });
    const day = (date: string) => saDays.find((d) => d.date === date)?.availability;
    expect(day('2026-03-09')).toBeNull();
    expect(day('2026-03-10')).toBe(100);
    expect(day('2026-03-12')).toBe(75);
    // A warning is not an outage.
    expect(day('2026-03-13')).toBe(100);
    expect(day('2026-03-14')).toBe(75);
    expect(sbDays.every((d) => d.availability === 100)).toBe(true);
    expect(stripDays(net.days).find((d) => d.date === '2026-03-12')?.availability).toBe(87.5);
    // The main answer carries one strip per network, none per station.
    expect(net.stations.some((s) => 'days' in s)).toBe(false);
  });

  it('answers 404 for the strips of a network that is not published, unknown or not a slug at all', async () => {
    expect((await call('GET', '/api/status/networks/hidden-rtk/days')).statusCode).toBe(404);
    expect((await call('GET', '/api/status/networks/no-such-net/days')).json().code).toBe('not_found');
    expect((await call('GET', '/api/status/networks/Not%20a%20slug/days')).statusCode).toBe(404);
  });

  it('counts a station only from its first data: one no base ever fed is not monitored yet, and no outage', async () => {
    const status = (await call('GET', '/api/status')).json() as Status;
    // Created with the network and never online: the demo's stations without a base.
    const idle = status.networks.find((n) => n.slug === 'idle-rtk');
    expect(idle?.state).toBe('unmonitored');
    expect(idle?.availability).toBeNull();
    expect(idle?.stations.map((s) => [s.mountpoint, s.state, s.availability])).toEqual([
      ['IDLE00NLD0', 'unmonitored', null],
    ]);
    expect(idle?.incidents).toEqual([]);
    expect(idle?.days.availability.every((d) => d === null)).toBe(true);

    // A network with one monitored station and one never fed: judged on the monitored one.
    const mixed = status.networks.find((n) => n.slug === 'mixed-rtk');
    expect(mixed?.state).toBe('operational');
    expect(mixed?.availability).toBe(100);
    expect(mixed?.stations.map((s) => [s.mountpoint, s.state])).toEqual([
      ['MIXA00NLD0', 'available'],
      ['MIXB00NLD0', 'unmonitored'],
    ]);
    expect(mixed?.incidents).toEqual([]);

    // Offline for a week after its creation, then fed: the week before its first data is not counted as down.
    const late = status.networks.find((n) => n.slug === 'late-rtk');
    expect(late?.availability).toBe(100);
    expect(late?.incidents).toEqual([]);
    expect(
      stripDays(late?.days ?? { from: '', availability: [] }).find((d) => d.date === '2026-03-05')?.availability,
    ).toBeNull();
  });

  it('lists the incidents newest first with start, end and cause, the ongoing one without an end', async () => {
    const status = (await call('GET', '/api/status')).json() as Status;
    const net = status.networks.find((n) => n.slug === network.slug);
    expect(
      net?.incidents.map(({ mountpoint, cause, codes, start, end }) => ({ mountpoint, cause, codes, start, end })),
    ).toEqual([
      { mountpoint: 'STAA00NLD0', cause: 'offline', codes: [], start: '2026-03-15T10:00:00.000Z', end: null },
      {
        mountpoint: 'STAA00NLD0',
        cause: 'integrity',
        codes: ['late', 'position_moved'],
        start: '2026-03-14T00:00:00.000Z',
        end: '2026-03-14T06:00:00.000Z',
      },
      {
        mountpoint: 'STAA00NLD0',
        cause: 'offline',
        codes: [],
        start: '2026-03-12T06:00:00.000Z',
        end: '2026-03-12T12:00:00.000Z',
      },
    ]);
  });

  it('lists at most 50 incidents of a network, and counts every one in the availability', async () => {
    const status = (await call('GET', '/api/status')).json() as Status;
    const net = status.networks.find((n) => n.slug === 'flappy-rtk');
    expect(net?.incidents).toHaveLength(50);
    expect(net?.incidents[0]?.start).toBe('2026-03-01T09:50:00.000Z');
    // 60 minutes down in 15.5 days.
    expect(net?.stations[0]?.availability).toBe(99.73);
    expect(
      stripDays(net?.days ?? { from: '', availability: [] }).find((d) => d.date === '2026-03-01')?.availability,
    ).toBe(95.83);
  });

  it('publishes the incidents as JSON and as an Atom feed', async () => {
    const json = await call('GET', '/api/status/incidents.json');
    expect(json.statusCode).toBe(200);
    const feed = json.json() as IncidentFeed;
    expect(feed.items).toHaveLength(63);
    expect(feed.items[0]).toMatchObject({ mountpoint: 'STAA00NLD0', cause: 'offline', end: null });
    expect(feed.items.some((i) => i.mountpoint === 'HIDE00NLD0')).toBe(false);

    const atom = await call('GET', '/api/status/incidents.atom');
    expect(atom.statusCode).toBe(200);
    expect(atom.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(atom.body).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    expect(atom.body.match(/<entry>/g)).toHaveLength(63);
    expect(atom.body).toContain(
      '<title>STAA00NLD0 (status-rtk): integrity failing (late, position_moved), resolved</title>',
    );
    expect(atom.body).toContain('<updated>2026-03-15T10:00:00.000Z</updated>');
  });

  it('answers the outage alerts the incidents of given stations since a moment', async () => {
    const read = createIncidentReader(t.db);
    const rows = await read({ stationIds: [a.id] }, new Date('2026-03-13T00:00:00Z'), now);
    expect(rows.map((r) => [r.cause, r.start.toISOString(), r.end?.toISOString() ?? null])).toEqual([
      ['offline', '2026-03-15T10:00:00.000Z', null],
      ['integrity', '2026-03-14T00:00:00.000Z', '2026-03-14T06:00:00.000Z'],
    ]);
  });
});
