import net from 'node:net';
import { encodeFrame, formatGga } from '@portal/caster';
import type { AdminLiveSessionList, LiveSessionList, LiveSourceList, NtripSessionPage } from '@portal/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { untilValue } from '../../../caster/test/support/wait.ts';
import { setPushFeed } from '../../src/cli/operator-actions.ts';
import type { CasterService } from '../../src/modules/ntrip/index.ts';
import { startTestCaster, TEST_FEED_KEY } from '../support/caster.ts';
import { testDatabaseKind } from '../support/database.ts';
import { activate, createAccount, createNetwork, createStation, grantTokens } from '../support/factories.ts';
import { buildTestApp, type TestContext, type TestUser } from '../support/test-app.ts';

/** Connects and sends a head; resolves once the caster answered its first line. */
function connect(port: number, head: string) {
  return new Promise<{ socket: net.Socket; text: () => string }>((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no answer: ${JSON.stringify(text)}`)), 10_000);
    socket.on('error', () => {});
    socket.on('connect', () => socket.write(head));
    socket.on('data', (d) => {
      const first = text === '';
      text += d.toString('latin1');
      if (first) {
        clearTimeout(timer);
        resolve({ socket, text: () => text });
      }
    });
  });
}

const basic = (user: string, password: string) => Buffer.from(`${user}:${password}`).toString('base64');

/** The catalogue and the live lists follow the caster within seconds; the API is asked ten times a second. */
const until = <T>(get: () => Promise<T>, ok: (value: T) => boolean, what: string, timeout = 8000) =>
  untilValue(get, ok, what, { timeout, interval: 100 });

describe(`live sessions, live base stations and status from data on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let caster: CasterService;
  let network: { id: string; slug: string };
  let station: string;
  const sockets: net.Socket[] = [];

  beforeAll(async () => {
    t = await buildTestApp({ live: { live: (q) => caster.caster.live(q) } });
    admin = await t.buildAdmin();
    network = await createNetwork(t.db, { price: 5 });
    station = `LS${network.slug.slice(-6).toUpperCase()}`;
    await createStation(t.db, network.id, station);
    // createStation writes 'online' as the old seed did; no caster ever reported it.
    await sql`UPDATE stations SET status = 'offline' WHERE mountpoint = ${station}`.execute(t.db);
    await setPushFeed(t.db, { mountpoint: station, password: 'base-secret-1' }, TEST_FEED_KEY);
    caster = await startTestCaster(t.db, { limits: { stationOnlineWindowMs: 1000, statusIntervalMs: 500 } });
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await caster?.close();
    await t?.close();
  });

  const stationStatus = async () =>
    (
      await sql<{ status: string; last_data_at: Date | null }>`
        SELECT status, last_data_at FROM stations WHERE mountpoint = ${station}`.execute(t.db)
    ).rows[0];

  it('turns the station online with its first frame and offline when frames stop, and shows the base to admins', async () => {
    const base = await connect(
      caster.port,
      `SOURCE base-secret-1 /${station}\r\nSource-Agent: NTRIP test-base\r\n\r\n`,
    );
    sockets.push(base.socket);
    expect(base.text()).toMatch(/^ICY 200 OK/);
    await new Promise((r) => setTimeout(r, 700));
    expect((await stationStatus())?.status).toBe('offline');

    const timer = setInterval(() => base.socket.write(encodeFrame(Buffer.from([0x3e, 0xd0, 1, 2, 3]))), 100);
    try {
      await until(stationStatus, (s) => s?.status === 'online', 'online in the catalogue');
      const live = await until(
        async () =>
          (
            await t.app.inject({ method: 'GET', url: '/api/admin/ntrip-live-sources', headers: admin.headers })
          ).json() as LiveSourceList,
        (l) => (l.items.find((s) => s.mountpoint === station)?.bytesPerSecond ?? 0) > 0,
        'the base in the live list',
      );
      expect(live.complete).toBe(true);
      const mine = live.items.find((s) => s.mountpoint === station);
      expect(mine).toMatchObject({ kind: 'push', address: '127.0.0.1', receiving: true });
      expect(mine?.lastFrameAgeSeconds).toBeLessThan(1);
    } finally {
      clearInterval(timer);
    }
    // The base stays connected but sends nothing: offline after the window, with its last frame's time.
    const offline = await until(stationStatus, (s) => s?.status === 'offline', 'offline after the window');
    expect(offline?.last_data_at).not.toBeNull();
    const asUser = await t.app.inject({
      method: 'GET',
      url: '/api/admin/ntrip-live-sources',
      headers: (await t.buildUser()).headers,
    });
    expect(asUser.statusCode).toBe(403);
    base.socket.destroy();
  });

  it('lists an account’s rovers live, with the served station, distance and fix, and keeps them when it ends', async () => {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 50);
    const { account, password } = await createAccount(t, user);
    expect((await activate(t, user, account.id, network.id, 1)).statusCode).toBe(201);
    await sql`UPDATE ntrip_accounts SET max_connections = 2 WHERE id = ${account.id}`.execute(t.db);
    caster.authorizer.invalidate();

    const base = await connect(caster.port, `SOURCE base-secret-1 /${station}\r\n\r\n`);
    sockets.push(base.socket);
    const frames = setInterval(() => base.socket.write(encodeFrame(Buffer.from([0x3e, 0xd0, 9]))), 100);
    try {
      const near = `${network.slug.toUpperCase()}_NEAR`;
      const rover = await connect(
        caster.port,
        `GET /${near} HTTP/1.0\r\nUser-Agent: NTRIP RTKLIB/2.4.3\r\nAuthorization: Basic ${basic(account.username, password)}\r\n\r\n`,
      );
      sockets.push(rover.socket);
      expect(rover.text()).toMatch(/^ICY 200 OK/);
      rover.socket.write(formatGga({ latitude: 52.01, longitude: 5.01 }, 'GN', 4));
      const fixed = await connect(
        caster.port,
        `GET /${station} HTTP/1.1\r\nNtrip-Version: Ntrip/2.0\r\nUser-Agent: NTRIP Other/1\r\nAuthorization: Basic ${basic(account.username, password)}\r\n\r\n`,
      );
      sockets.push(fixed.socket);

      const live = await until(
        async () =>
          (
            await t.app.inject({
              method: 'GET',
              url: `/api/ntrip-accounts/${account.id}/live-sessions`,
              headers: user.headers,
            })
          ).json() as LiveSessionList,
        (l) => l.items.length === 2 && l.items.some((s) => s.fix?.quality === 'fixed' && s.bytesSent > 0),
        'both rovers live, the nearest-station one with its fix',
      );
      expect(live.complete).toBe(true);
      const nearSession = live.items.find((s) => s.mountpoint === near);
      expect(nearSession).toMatchObject({
        servedStation: station,
        userAgent: 'NTRIP RTKLIB/2.4.3',
        remoteAddress: '127.0.0.1',
        ntripVersion: 1,
        tls: false,
        fix: { quality: 'fixed', satellites: 12 },
      });
      // The station is at 52°N 5°E (createStation): 0.01° north and east of it is about 1.3 km.
      expect(nearSession?.distanceKm).toBeGreaterThan(1.2);
      expect(nearSession?.distanceKm).toBeLessThan(1.4);
      expect(live.items.find((s) => s.mountpoint === station)).toMatchObject({
        servedStation: station,
        ntripVersion: 2,
        fix: null,
      });

      const stranger = await t.buildUser();
      const hidden = await t.app.inject({
        method: 'GET',
        url: `/api/ntrip-accounts/${account.id}/live-sessions`,
        headers: stranger.headers,
      });
      expect(hidden.statusCode).toBe(404);
      const all = (
        await t.app.inject({ method: 'GET', url: '/api/admin/ntrip-live-sessions', headers: admin.headers })
      ).json() as AdminLiveSessionList;
      expect(all.items.filter((s) => s.accountId === account.id).map((s) => s.accountUsername)).toEqual([
        account.username,
        account.username,
      ]);

      rover.socket.write(formatGga({ latitude: 52.01, longitude: 5.01 }, 'GN', 5));
      await new Promise((r) => setTimeout(r, 300));
      rover.socket.write(formatGga({ latitude: 52.01, longitude: 5.01 }, 'GN', 5));
      rover.socket.destroy();
      const page = await until(
        async () =>
          (
            await t.app.inject({
              method: 'GET',
              url: `/api/ntrip-accounts/${account.id}/sessions`,
              headers: user.headers,
            })
          ).json() as NtripSessionPage,
        (p) => p.items.some((s) => s.mountpoint === near),
        'the ended session in the usage list',
        15_000,
      );
      const ended = page.items.find((s) => s.mountpoint === near);
      expect(ended).toMatchObject({ servedStation: station, userAgent: 'NTRIP RTKLIB/2.4.3' });
      expect(ended?.distanceKm).toBeCloseTo(nearSession?.distanceKm ?? 0, 2);
      // Fixed from the first GGA until the float ones, then float: both shares count, and nothing else was sent.
      expect(ended?.fixedShare).toBeGreaterThan(0);
      expect(ended?.floatShare).toBeGreaterThan(0);
      expect((ended?.fixedShare ?? 0) + (ended?.floatShare ?? 0)).toBeCloseTo(1, 3);
    } finally {
      clearInterval(frames);
      base.socket.destroy();
    }
  });

  // A second app on its own database: slow to build on a loaded machine.
  it('answers an empty, incomplete list when no caster can be asked', { timeout: 90_000 }, async () => {
    const alone = await buildTestApp();
    try {
      const user = await alone.buildUser();
      const { account } = await createAccount(alone, user);
      const res = await alone.app.inject({
        method: 'GET',
        url: `/api/ntrip-accounts/${account.id}/live-sessions`,
        headers: user.headers,
      });
      expect(res.json()).toMatchObject({ items: [], complete: false });
    } finally {
      await alone.close();
    }
  });
});
