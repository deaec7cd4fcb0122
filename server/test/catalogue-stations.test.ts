import { gunzipSync } from 'node:zlib';
import type { Network, Station, StationMarker } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

describe(`catalogue stations on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let dutch: Network;
  let nordic: Network;
  let hidden: Network;

  const post = async <T>(url: string, payload: Record<string, unknown>): Promise<T> => {
    const res = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as T;
  };
  const station = (networkId: string, mountpoint: string, latitude: number, longitude: number, country = 'NLD') =>
    post<Station>('/api/admin/stations', { networkId, mountpoint, latitude, longitude, country });

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.buildAdmin();
    dutch = await post<Network>('/api/admin/networks', { name: 'Dutch RTK' });
    nordic = await post<Network>('/api/admin/networks', { name: 'Nordic RTK' });
    hidden = await post<Network>('/api/admin/networks', { name: 'Hidden RTK', isPublic: false });
    await station(dutch.id, 'AMST00NLD0', 52.37, 4.9);
    await station(dutch.id, 'DELF00NLD0', 52.0, 4.36);
    await station(dutch.id, 'GRON00NLD0', 53.22, 6.57);
    await station(nordic.id, 'OSLO00NOR0', 59.91, 10.75, 'NOR');
    await station(nordic.id, 'TROM00NOR0', 69.65, 18.96, 'NOR');
    await station(hidden.id, 'SECR00NLD0', 52.1, 5.1);
  });
  afterAll(() => t.close());

  it('creates a station with sourcetable defaults and its earth-centred position', async () => {
    const created = await post<Station>('/api/admin/stations', {
      networkId: dutch.id,
      mountpoint: 'UTRE00NLD0',
      identifier: 'Utrecht',
      country: 'nld',
      latitude: 52.09,
      longitude: 5.12,
      heightM: 50.2,
      receiver: 'SEPT POLARX5',
      antenna: 'LEIAR25.R4 LEIT',
      formatDetails: '1006(10),1077(1),1087(1),1097(1),1127(1),1230(10)',
      navSystem: 'gps+glo+gal+bds',
    });
    expect(created).toMatchObject({
      networkSlug: 'dutch-rtk',
      country: 'NLD',
      format: 'RTCM 3.3',
      navSystem: 'GPS+GLO+GAL+BDS',
      carrier: 2,
      status: 'offline',
      lastDataAt: null,
    });
    // WGS84: a point at 52.09 N 5.12 E and 50 m lies about 3.92e6 m from the axis towards Greenwich.
    expect(created.ecef?.x).toBeCloseTo(3_914_000, -4);
    expect(created.ecef?.z).toBeCloseTo(5_009_000, -4);

    const publicRead = await t.app.inject({ method: 'GET', url: `/api/stations/${created.id}` });
    expect(publicRead.statusCode).toBe(200);
    expect(publicRead.json()).toEqual(created);
  });

  it('refuses a mountpoint that is taken, in any letter case and in any network, with 409', async () => {
    for (const [networkId, mountpoint] of [
      [dutch.id, 'AMST00NLD0'],
      [nordic.id, 'amst00nld0'],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/stations',
        headers: admin.headers,
        payload: { networkId, mountpoint, latitude: 1, longitude: 1, country: 'NLD' },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'mountpoint_taken', field: 'mountpoint' });
      expect(res.json().message).toContain('dutch-rtk');
    }
  });

  it('names the failing field of an invalid station', async () => {
    const valid = { networkId: dutch.id, mountpoint: 'VALID01', latitude: 52, longitude: 5, country: 'NLD' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ mountpoint: 'has space' }, 'mountpoint'],
      [{ mountpoint: 'semi;colon' }, 'mountpoint'],
      [{ mountpoint: 'x'.repeat(65) }, 'mountpoint'],
      [{ latitude: 90.5 }, 'latitude'],
      [{ longitude: -181 }, 'longitude'],
      [{ country: 'NL' }, 'country'],
      [{ format: 'RTCM 2.3' }, 'format'],
      [{ navSystem: 'GPS+MARS' }, 'navSystem'],
      [{ carrier: 3 }, 'carrier'],
      [{ identifier: 'Delft;Zuid' }, 'identifier'],
      [{ networkId: '00000000-0000-4000-8000-000000000000' }, 'networkId'],
    ];
    for (const [override, field] of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/stations',
        headers: admin.headers,
        payload: { ...valid, ...override },
      });
      expect(res.statusCode, JSON.stringify(override)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', field });
    }
  });

  it('replaces, patches, moves between networks and deletes a station', async () => {
    const created = await station(dutch.id, 'MOVE00NLD0', 51.5, 5.5);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/stations/${created.id}`,
      headers: admin.headers,
      payload: { networkId: dutch.id, mountpoint: 'MOVE00NLD1', latitude: 51.6, longitude: 5.6, country: 'NLD' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ mountpoint: 'MOVE00NLD1', latitude: 51.6 });

    const moved = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/stations/${created.id}`,
      headers: admin.headers,
      payload: { networkId: nordic.id, receiver: 'TRIMBLE ALLOY' },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ networkSlug: 'nordic-rtk', receiver: 'TRIMBLE ALLOY', latitude: 51.6 });

    const clash = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/stations/${created.id}`,
      headers: admin.headers,
      payload: { mountpoint: 'OSLO00NOR0' },
    });
    expect(clash.statusCode).toBe(409);

    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/stations/${created.id}`,
      headers: admin.headers,
    });
    expect(del.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: `/api/stations/${created.id}` })).statusCode).toBe(404);
  });

  it('filters the public list by bounding box, network and status, and never shows hidden networks', async () => {
    const list = async (query: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/stations?${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { total: number; items: Station[] };
    };
    const mountpoints = (page: { items: Station[] }) => page.items.map((s) => s.mountpoint);

    const holland = await list('bbox=3.3,50.7,7.3,53.6');
    expect(mountpoints(holland)).toEqual(expect.arrayContaining(['AMST00NLD0', 'DELF00NLD0', 'GRON00NLD0']));
    expect(mountpoints(holland)).not.toContain('OSLO00NOR0');
    expect(mountpoints(holland)).not.toContain('SECR00NLD0');

    const south = await list('bbox=3.3,50.7,7.3,52.2');
    expect(mountpoints(south)).toContain('DELF00NLD0');
    expect(mountpoints(south)).not.toContain('AMST00NLD0');

    expect(mountpoints(await list('network=nordic-rtk'))).toEqual(['OSLO00NOR0', 'TROM00NOR0']);
    expect(mountpoints(await list(`network=${nordic.id}&bbox=5,55,15,65`))).toEqual(['OSLO00NOR0']);
    expect((await list('status=online')).total).toBe(0);
    expect(mountpoints(await list('search=gron'))).toEqual(['GRON00NLD0']);

    const hiddenNetwork = await t.app.inject({ method: 'GET', url: '/api/stations?network=hidden-rtk' });
    expect(hiddenNetwork.statusCode).toBe(404);
    const adminView = await t.app.inject({
      method: 'GET',
      url: '/api/admin/stations?network=hidden-rtk',
      headers: admin.headers,
    });
    expect(adminView.json().items.map((s: Station) => s.mountpoint)).toEqual(['SECR00NLD0']);
  });

  it('pages with a total count and offers a compact marker view for maps', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/stations?limit=2' });
    const second = await t.app.inject({ method: 'GET', url: '/api/stations?limit=2&offset=2' });
    const all = await t.app.inject({ method: 'GET', url: '/api/stations?limit=500' });
    expect(first.json()).toMatchObject({ view: 'full', limit: 2, offset: 0 });
    expect(first.json().total).toBe(all.json().items.length);
    expect([...first.json().items, ...second.json().items].map((s: Station) => s.mountpoint)).toEqual(
      all
        .json()
        .items.slice(0, 4)
        .map((s: Station) => s.mountpoint),
    );

    const compact = await t.app.inject({ method: 'GET', url: '/api/stations?view=compact&limit=10000' });
    expect(compact.statusCode).toBe(200);
    const markers = compact.json().items as StationMarker[];
    expect(markers).toHaveLength(all.json().total);
    expect(Object.keys(markers[0] ?? {}).sort()).toEqual(
      ['id', 'latitude', 'longitude', 'mountpoint', 'networkId', 'status'].sort(),
    );

    const tooLarge = await t.app.inject({ method: 'GET', url: '/api/stations?limit=501' });
    expect(tooLarge.statusCode).toBe(400);
    expect(tooLarge.json()).toMatchObject({ code: 'validation_failed', field: 'limit' });
  });

  it('compresses a large list for a client that accepts gzip, and not a small answer', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/api/stations?limit=500' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const zipped = await t.app.inject({
      method: 'GET',
      url: '/api/stations?limit=500',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    const body = gunzipSync(zipped.rawPayload);
    expect(zipped.rawPayload.length).toBeLessThan(body.length);
    expect(JSON.parse(body.toString('utf8'))).toEqual(plain.json());

    const small = await t.app.inject({ method: 'GET', url: '/api/meta', headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('rejects a malformed bounding box with the field named', async () => {
    for (const bbox of ['1,2,3', '1,2,3,x', '0,95,10,10', '0,60,10,50']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/stations?bbox=${bbox}` });
      expect(res.statusCode, bbox).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', field: expect.stringMatching(/^bbox/) });
    }
  });

  it('includes stations across the antimeridian when the box wraps', async () => {
    await station(nordic.id, 'FIJI00FJI0', -18.1, 178.4, 'FJI');
    await station(nordic.id, 'SAMO00WSM0', -13.8, -171.8, 'WSM');
    const res = await t.app.inject({ method: 'GET', url: '/api/stations?bbox=170,-30,-165,0' });
    expect(res.json().items.map((s: Station) => s.mountpoint)).toEqual(['FIJI00FJI0', 'SAMO00WSM0']);
  });

  it('counts stations and derives the coverage of each network', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/networks/dutch-rtk' });
    const network = res.json() as Network;
    expect(network.stationCount).toBeGreaterThanOrEqual(3);
    const [minLon, minLat, maxLon, maxLat] = network.coverage?.bbox ?? [];
    expect(minLon).toBeCloseTo(4.36);
    expect(maxLon).toBeCloseTo(6.57);
    expect(minLat).toBeCloseTo(52.0);
    expect(maxLat).toBeCloseTo(53.22);
  });

  it('refuses station writes by a user with 403 and anonymous callers with 401', async () => {
    const user = await t.buildUser();
    const payload = { networkId: dutch.id, mountpoint: 'USER01', latitude: 52, longitude: 5, country: 'NLD' };
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/admin/stations', payload });
    expect(anonymous.statusCode).toBe(401);
    const asUser = await t.app.inject({ method: 'POST', url: '/api/admin/stations', headers: user.headers, payload });
    expect(asUser.statusCode).toBe(403);
    const list = await t.app.inject({ method: 'GET', url: '/api/stations?search=USER01' });
    expect(list.json().total).toBe(0);
  });
});
