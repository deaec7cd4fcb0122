import net from 'node:net';
import type { Network, Station } from '@portal/contract';
import { ecefToGeodetic, encodeStationPosition, geodeticToEcef } from '@portal/gnss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untilValue } from '../../caster/test/support/wait.ts';
import { setPushFeed } from '../src/cli/operator-actions.ts';
import type { CasterService } from '../src/modules/ntrip/index.ts';
import { startTestCaster, TEST_FEED_KEY } from './support/caster.ts';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

/**
 * The integrity monitor through the portal (issue 33): the caster's finding on GET /api/stations/:id, the history of
 * state changes, and an admin's acknowledgement, override and re-survey (with the audit log).
 */
describe(`station integrity on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let customer: TestUser;
  let network: Network;
  let station: Station;
  let caster: CasterService;
  let source: net.Socket;
  let sending: NodeJS.Timeout;
  const surveyed = { latitude: 52.37, longitude: 4.9, heightM: 45 };
  const home = geodeticToEcef(surveyed.latitude, surveyed.longitude, surveyed.heightM);
  // 5 cm east of home.
  const lon = (surveyed.longitude * Math.PI) / 180;
  const moved: [number, number, number] = [home[0] - 0.05 * Math.sin(lon), home[1] + 0.05 * Math.cos(lon), home[2]];
  let sent: [number, number, number] = home;

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, user?: TestUser, payload?: object) =>
    t.app.inject({ method, url, headers: user?.headers, payload });
  const read = async () => (await call('GET', `/api/stations/${station.id}`)).json() as Station;
  const until = (what: string, check: (s: Station) => boolean) =>
    untilValue(read, check, what, { timeout: 10_000, interval: 100 });

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.buildAdmin();
    customer = await t.buildUser();
    network = (await call('POST', '/api/admin/networks', admin, { name: 'Integrity RTK' })).json() as Network;
    station = (
      await call('POST', '/api/admin/stations', admin, {
        networkId: network.id,
        mountpoint: 'INTG00NLD0',
        country: 'NLD',
        ...surveyed,
      })
    ).json() as Station;
    await setPushFeed(t.db, { mountpoint: 'INTG00NLD0', password: 'base-secret' }, TEST_FEED_KEY);
    caster = await startTestCaster(t.db, { limits: { catalogueRefreshMs: 200 } });
    source = net.connect({ port: caster.port, host: '127.0.0.1' });
    source.on('error', () => {});
    source.write('SOURCE base-secret /INTG00NLD0\r\n\r\n');
    // A base station that sends its reference position a few times a second.
    sending = setInterval(() => source.write(encodeStationPosition(sent)), 250);
  });
  afterAll(async () => {
    clearInterval(sending);
    source?.destroy();
    await caster?.close();
    await t.close();
  });

  it('is ok while the station sends its surveyed position, and says so on the public station', async () => {
    const s = await until('online', (x) => x.status === 'online');
    expect(s.integrity).toEqual({ state: 'ok', reasons: [], excluded: false, override: false, acknowledgedAt: null });
  });

  it('fails when the reference position moves 5 cm, naming the move, and records the change', async () => {
    sent = moved;
    const s = await until('failing', (x) => x.integrity.state === 'failing');
    expect(s.integrity.reasons).toEqual([
      {
        code: 'position_moved',
        level: 'failing',
        message: expect.stringMatching(/moved 5\.0 cm horizontally and 0\.0 cm vertically/),
        since: expect.any(String),
      },
    ]);
    expect(s.integrity.excluded).toBe(true);
    const changes = await t.db
      .selectFrom('station_state_changes')
      .select(['online', 'integrity', 'causes'])
      .where('station_id', '=', station.id)
      .orderBy('id')
      .execute();
    expect(changes.at(-1)).toEqual({ online: true, integrity: 'failing', causes: 'position_moved' });
  });

  it('lets only an admin acknowledge, override and re-survey, each in the audit log', async () => {
    const url = `/api/admin/stations/${station.id}/integrity`;
    expect((await call('POST', url, customer, { action: 'acknowledge' })).statusCode).toBe(403);
    expect((await call('POST', url, undefined, { action: 'acknowledge' })).statusCode).toBe(401);
    const bad = await call('POST', url, admin, { action: 'forget' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('validation_failed');

    const acknowledged = await call('POST', url, admin, { action: 'acknowledge' });
    expect(acknowledged.statusCode).toBe(200);
    expect((acknowledged.json() as Station).integrity.acknowledgedAt).not.toBeNull();

    expect((await call('POST', url, admin, { action: 'override' })).json().integrity.override).toBe(true);
    // Overridden: back in the nearest-station choice while still failing.
    await until('back in the choice', (x) => x.integrity.state === 'failing' && !x.integrity.excluded);
    expect((await call('POST', url, admin, { action: 'clear_override' })).json().integrity.override).toBe(false);

    const resurveyed = (await call('POST', url, admin, { action: 'resurvey' })).json() as Station;
    const accepted = ecefToGeodetic(moved);
    expect(resurveyed.latitude).toBeCloseTo(accepted.latitude, 8);
    expect(resurveyed.longitude).toBeCloseTo(accepted.longitude, 8);
    expect(resurveyed.heightM).toBeCloseTo(accepted.heightM, 3);
    // The caster takes the new survey from the catalogue and starts the history again from it.
    await until('ok after the re-survey', (x) => x.integrity.state === 'ok');

    const audit = (await call('GET', '/api/admin/audit?limit=50', admin)).json().items as Array<{ action: string }>;
    const actions = audit.map((a) => a.action);
    for (const action of ['acknowledge', 'override', 'clear_override', 'resurvey']) {
      expect(actions).toContain(`station.integrity.${action}`);
    }
  });

  it("keeps a network's thresholds and good period, and refuses bad ones with 400", async () => {
    const url = `/api/admin/networks/${network.id}/integrity`;
    expect((await call('GET', url, admin)).json()).toEqual({
      movedHorizontalM: 0.02,
      movedVerticalM: 0.04,
      goodPeriodSeconds: 60,
    });
    const put = await call('PUT', url, admin, { movedHorizontalM: 0.03, movedVerticalM: 0.05, goodPeriodSeconds: 300 });
    expect(put.statusCode).toBe(200);
    expect((await call('GET', url, admin)).json()).toEqual({
      movedHorizontalM: 0.03,
      movedVerticalM: 0.05,
      goodPeriodSeconds: 300,
    });
    const bad = await call('PUT', url, admin, { movedHorizontalM: -1, movedVerticalM: 0.05, goodPeriodSeconds: 300 });
    expect(bad.statusCode).toBe(400);
    expect((await call('GET', url, admin)).json().movedHorizontalM).toBe(0.03);
    expect(
      (await call('PUT', url, customer, { movedHorizontalM: 1, movedVerticalM: 1, goodPeriodSeconds: 1 })).statusCode,
    ).toBe(403);
  });
});
