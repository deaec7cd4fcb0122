import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { connectionTestResultSchema } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../../caster/test/support/wait.ts';
import { setPushFeed } from '../../src/cli/operator-actions.ts';
import type { CasterService } from '../../src/modules/ntrip/index.ts';
import { createProbeVerifier, issueProbeToken, PROBE_TOKEN_TTL_MS } from '../../src/modules/ntrip/ntrip.probe.ts';
import { startTestCaster, TEST_FEED_KEY } from '../support/caster.ts';
import { testDatabaseKind } from '../support/database.ts';
import { activate, createAccount, createNetwork, createStation, grantTokens } from '../support/factories.ts';
import { buildTestApp, type TestContext, type TestUser } from '../support/test-app.ts';

/** A real base station's capture (NovAtel OEM729, Hiroshima): 1005, 1033, MSM7 of six systems, every ephemeris. */
const CAPTURE = readFileSync(
  new URL('../../../gnss/test/fixtures/oem729_hiroshima_20221213_msm7_alleph.rtcm3', import.meta.url),
);
const SOURCE_PASSWORD = 'source-pass-2026';

/** Feeds the station as its NTRIP 1 source, the capture over and over, until stopped. */
function feed(port: number, mountpoint: string): Promise<{ stop(): void }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', reject);
    socket.write(`SOURCE ${SOURCE_PASSWORD} /${mountpoint}\r\n\r\n`);
    socket.once('data', (answer) => {
      if (!answer.toString('latin1').startsWith('ICY 200 OK')) return reject(new Error(`source refused: ${answer}`));
      let offset = 0;
      const timer = setInterval(() => {
        socket.write(CAPTURE.subarray(offset, offset + 4096));
        offset = offset + 4096 >= CAPTURE.length ? 0 : offset + 4096;
      }, 50);
      resolve({
        stop() {
          clearInterval(timer);
          socket.destroy();
        },
      });
    });
  });
}

/** A rover with the account's real password; resolves once it is streaming. */
function rover(port: number, mountpoint: string, username: string, password: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', reject);
    const auth = Buffer.from(`${username}:${password}`).toString('base64');
    socket.write(`GET /${mountpoint} HTTP/1.0\r\nUser-Agent: NTRIP test\r\nAuthorization: Basic ${auth}\r\n\r\n`);
    socket.once('data', (answer) =>
      answer.toString('latin1').startsWith('ICY 200 OK') ? resolve(socket) : reject(new Error(`${answer}`)),
    );
  });
}

/** The caster's cap on a connection-test login here: a little longer than the API's test (3 s) listens. */
const CASTER_TEST_MS = 4000;

/** A connection-test login with a token signed with the caster's key; resolves once it streams. */
function probeLogin(port: number, username: string, mountpoint: string): Promise<{ closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('error', reject);
    const auth = Buffer.from(`${username}:${issueProbeToken(TEST_FEED_KEY, username, mountpoint)}`).toString('base64');
    socket.write(`GET /${mountpoint} HTTP/1.1\r\nNtrip-Version: Ntrip/2.0\r\nAuthorization: Basic ${auth}\r\n\r\n`);
    socket.once('data', (answer) =>
      answer.toString('latin1').startsWith('HTTP/1.1 200') ? resolve({ closed }) : reject(new Error(`${answer}`)),
    );
  });
}

describe(`Test connection of an NTRIP account on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let caster: CasterService | undefined;
  const address = { host: '127.0.0.1', port: 0 };
  let network: { id: string; slug: string };
  let mountpoint: string;

  beforeAll(async () => {
    t = await buildTestApp({
      ntripAccounts: {
        access: { accessChanged: (c) => caster?.accessChanged(c) },
        live: { connectionsByAccount: (ids) => caster?.caster.connectionsByAccount(ids) ?? new Map() },
        caster: address,
        connectionTestMs: 3000,
      },
    });
    admin = await t.buildAdmin();
    network = await createNetwork(t.db, { price: 5 });
    mountpoint = `CT${network.slug.slice(-6).toUpperCase()}`;
    await createStation(t.db, network.id, mountpoint);
    await setPushFeed(t.db, { mountpoint, password: SOURCE_PASSWORD }, TEST_FEED_KEY);
    caster = await startTestCaster(t.db, { limits: { connectionTestMs: CASTER_TEST_MS } });
    address.port = caster.port;
  });
  afterAll(async () => {
    await caster?.close();
    await t?.close();
  });

  async function accountWithAccess() {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 50);
    const created = await createAccount(t, user);
    expect((await activate(t, user, created.account.id, network.id, 1)).statusCode).toBe(201);
    return { user, ...created };
  }

  const test = (user: TestUser, accountId: string, body: object) =>
    t.app.inject({
      method: 'POST',
      url: `/api/ntrip-accounts/${accountId}/test-connection`,
      headers: user.headers,
      payload: body,
    });

  it('reports the message types, satellites and timing of a real capture being pushed', async () => {
    const { user, account } = await accountWithAccess();
    const source = await feed(address.port, mountpoint);
    try {
      const res = await test(user, account.id, { mountpoint });
      expect(res.statusCode).toBe(200);
      const result = connectionTestResultSchema.parse(res.json());
      expect(result).toMatchObject({ mountpoint, ok: true, reason: null, casterAnswer: 'HTTP/1.1 200 OK' });
      expect(result.frames).toBeGreaterThan(10);
      expect(result.bytes).toBeGreaterThan(result.frames * 6);
      expect(result.firstFrameAfterMs).toBeLessThan(3000);
      expect(result.lastFrameAgeMs).toBeLessThan(1000);
      const byType = new Map(result.messages.map((m) => [m.type, m]));
      expect(byType.get(1005)).toMatchObject({ kind: 'station' });
      expect(byType.get(1033)).toMatchObject({ kind: 'antenna' });
      expect(byType.get(1077)).toMatchObject({ kind: 'msm', constellation: 'GPS', msm: 7 });
      expect(byType.get(1087)).toMatchObject({ kind: 'msm', constellation: 'GLONASS', msm: 7 });
      expect(byType.get(1127)).toMatchObject({ kind: 'msm', constellation: 'BeiDou', msm: 7 });
      expect(byType.get(1019)).toMatchObject({ kind: 'ephemeris', constellation: 'GPS' });
      const satellites = Object.fromEntries(result.satellites.map((s) => [s.constellation, s.count]));
      for (const system of ['GPS', 'GLONASS', 'Galileo', 'BeiDou', 'QZSS']) {
        expect(satellites[system], system).toBeGreaterThan(0);
      }
      expect(result.stationId).not.toBeNull();
      // The capture is from 2022: its epochs are far behind the clock (modulo the week RTCM does not carry).
      expect(Math.abs(result.observationAgeSeconds ?? 0)).toBeGreaterThan(60);
    } finally {
      source.stop();
    }
  });

  it("takes one of the account's connections like a rover, and is logged as one of its sessions", async () => {
    const { user, account, password } = await accountWithAccess();
    const connected = () => caster?.caster.connectionsByAccount([account.id]).get(account.id) ?? 0;
    // The account allows one rover and it is in use: the test is refused as a second rover would be.
    const own = await rover(address.port, mountpoint, account.username, password);
    const refused = await test(user, account.id, { mountpoint });
    expect(refused.json()).toMatchObject({
      ok: false,
      reason: 'too_many_connections',
      casterAnswer: 'HTTP/1.1 429 Too Many Requests',
    });
    own.destroy();
    await until(() => connected() === 0, 'the connection count');

    // While the test holds the only connection, a rover is refused.
    const running = test(user, account.id, { mountpoint });
    await until(() => connected() === 1, 'the connection count');
    await expect(rover(address.port, mountpoint, account.username, password)).rejects.toThrow(/^HTTP\/1\.0 429/);
    expect((await running).json()).toMatchObject({ casterAnswer: 'HTTP/1.1 200 OK' });
    await until(() => connected() === 0, 'the connection count');

    const sessions = async () =>
      (
        await t.app.inject({ method: 'GET', url: `/api/ntrip-accounts/${account.id}/sessions`, headers: user.headers })
      ).json() as { items: Array<{ mountpoint: string; userAgent: string | null }> };
    await until(async () => (await sessions()).items.length === 2, 'both sessions in the log', 15_000);
    expect((await sessions()).items.map((s) => s.userAgent).sort()).toEqual([
      'NTRIP GNSSPortalConnectionTest/1.0',
      'NTRIP test',
    ]);
  });

  it('ends a connection-test login by itself when the test is over, and at once when the account is disabled', async () => {
    const { account } = await accountWithAccess();
    const port = address.port;
    // A login signed as the API signs it, held open by whoever has the token rather than by the API's test.
    const held = await probeLogin(port, account.username, mountpoint);
    const started = Date.now();
    await held.closed;
    expect(Date.now() - started).toBeGreaterThanOrEqual(CASTER_TEST_MS - 100);
    expect(Date.now() - started).toBeLessThan(CASTER_TEST_MS + 2000);

    const again = await probeLogin(port, account.username, mountpoint);
    const disabledAt = Date.now();
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/ntrip-accounts/${account.id}`,
      headers: admin.headers,
      payload: { enabled: false },
    });
    expect(res.statusCode, res.body).toBe(200);
    await again.closed;
    expect(Date.now() - disabledAt).toBeLessThan(CASTER_TEST_MS - 1000);
  });

  it('says "no access" with the caster\'s own answer when no grant covers the network', async () => {
    const user = await t.buildUser();
    const { account } = await createAccount(t, user);
    const res = await test(user, account.id, { mountpoint });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      ok: false,
      reason: 'no_access',
      casterAnswer: 'HTTP/1.1 403 Forbidden',
      frames: 0,
    });
  });

  it('says "disabled" for a switched-off account and "unknown mountpoint" for a name the caster does not have', async () => {
    const { user, account } = await accountWithAccess();
    const unknown = await test(user, account.id, { mountpoint: 'NOSUCH0' });
    expect(unknown.json()).toMatchObject({
      ok: false,
      reason: 'unknown_mountpoint',
      casterAnswer: 'HTTP/1.1 404 Not Found',
    });
    await t.app.inject({
      method: 'PATCH',
      url: `/api/ntrip-accounts/${account.id}`,
      headers: user.headers,
      payload: { enabled: false },
    });
    expect((await test(user, account.id, { mountpoint })).json()).toMatchObject({ ok: false, reason: 'disabled' });
  });

  it("asks for a position on a nearest-station mountpoint, and with one gets the nearest station's data", async () => {
    const { user, account } = await accountWithAccess();
    const near = `${network.slug.toUpperCase()}_NEAR`;
    const without = await test(user, account.id, { mountpoint: near });
    expect(without.json()).toMatchObject({ ok: false, reason: 'needs_position', casterAnswer: null });
    const source = await feed(address.port, mountpoint);
    try {
      const res = await test(user, account.id, { mountpoint: near, position: { latitude: 52.01, longitude: 5.02 } });
      expect(res.json()).toMatchObject({ ok: true, casterAnswer: 'HTTP/1.1 200 OK' });
      // A nearest-station rover gets the station's position first.
      expect(res.json().messages.map((m: { type: number }) => m.type)).toContain(1005);
    } finally {
      source.stop();
    }
  });

  it("answers 404 for another user's account, 401 without a login, 400 for a bad mountpoint name", async () => {
    const { account } = await accountWithAccess();
    const stranger = await t.buildUser();
    expect((await test(stranger, account.id, { mountpoint })).statusCode).toBe(404);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: `/api/ntrip-accounts/${account.id}/test-connection`,
      payload: { mountpoint },
    });
    expect(anonymous.statusCode).toBe(401);
    const bad = await test(stranger, account.id, { mountpoint: 'a b/../c' });
    expect(bad.statusCode).toBe(400);
  });

  it('allows a few tests a minute per user, then answers 429', async () => {
    const user = await t.buildUser();
    const { account } = await createAccount(t, user);
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await test(user, account.id, { mountpoint: 'NOSUCH0' })).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 200, 200, 429]);
    // Another user's budget is its own.
    const other = await t.buildUser();
    const { account: theirs } = await createAccount(t, other);
    expect((await test(other, theirs.id, { mountpoint: 'NOSUCH0' })).statusCode).toBe(200);
  });
});

describe('connection-test tokens', () => {
  it('open one login, for the username and mountpoint they were made for, until they expire', () => {
    const verifier = createProbeVerifier(TEST_FEED_KEY);
    const now = Date.now();
    const token = issueProbeToken(TEST_FEED_KEY, 'rtk-abcd2345', 'AMS1', now);
    expect(verifier.accept(token, 'rtk-abcd2345', 'AMS2', now)).toBe(false);
    expect(verifier.accept(token, 'rtk-other', 'AMS1', now)).toBe(false);
    expect(verifier.accept(token, 'RTK-ABCD2345', 'ams1', now)).toBe(true);
    expect(verifier.accept(token, 'rtk-abcd2345', 'AMS1', now)).toBe(false);
    const late = issueProbeToken(TEST_FEED_KEY, 'rtk-abcd2345', 'AMS1', now);
    expect(verifier.accept(late, 'rtk-abcd2345', 'AMS1', now + PROBE_TOKEN_TTL_MS + 1)).toBe(false);
    const otherKey = issueProbeToken(Buffer.alloc(32, 7).toString('base64'), 'rtk-abcd2345', 'AMS1', now);
    expect(verifier.accept(otherKey, 'rtk-abcd2345', 'AMS1', now)).toBe(false);
    expect(verifier.accept(`${token}x`, 'rtk-abcd2345', 'AMS1', now)).toBe(false);
  });
});
