import net from 'node:net';
import type { LoginFailure, LoginFailurePage, Refusal } from '@portal/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CasterService } from '../../src/modules/ntrip/index.ts';

import { startTestCaster } from '../support/caster.ts';
import { testDatabaseKind } from '../support/database.ts';
import { activate, createAccount, createNetwork, createStation, grantTokens } from '../support/factories.ts';
import { buildTestApp, type TestContext, type TestUser } from '../support/test-app.ts';

/** A rover's request head as RTKLIB (NTRIP 1) or an NTRIP 2 client sends it. */
function head(mountpoint: string, version: 1 | 2, user: string, password: string, extra: string[] = []) {
  const auth = `Authorization: Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const lines =
    version === 1
      ? [`GET /${mountpoint} HTTP/1.0`, 'User-Agent: NTRIP RTKLIB/2.4.3', auth]
      : [
          `GET /${mountpoint} HTTP/1.1`,
          'Host: 127.0.0.1',
          'Ntrip-Version: Ntrip/2.0',
          'User-Agent: NTRIP Test2/1.0',
          auth,
        ];
  return `${[...lines, ...extra].join('\r\n')}\r\n\r\n`;
}

/** Connects, sends the head, and resolves with the socket once the caster answered its first line. */
function attempt(port: number, request: string, localAddress?: string) {
  return new Promise<{ socket: net.Socket; answer: string }>((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no answer: ${JSON.stringify(text)}`)), 10_000);
    socket.on('error', () => {});
    socket.on('connect', () => socket.write(request));
    const done = () => {
      clearTimeout(timer);
      resolve({ socket, answer: text });
    };
    socket.on('data', (d) => {
      text += d.toString('latin1');
      if (text.includes('\r\n')) done();
    });
    socket.on('close', done);
  });
}

describe(`refused attempts through the caster and the API on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let caster: CasterService;
  let port: number;
  let network: { id: string; slug: string };
  let other: { id: string; slug: string };
  let station: string;
  let foreign: string;
  const sockets: net.Socket[] = [];

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.buildAdmin();
    network = await createNetwork(t.db, { price: 5 });
    other = await createNetwork(t.db, { price: 5 });
    station = `RF${network.slug.slice(-6).toUpperCase()}`;
    foreign = `RO${other.slug.slice(-6).toUpperCase()}`;
    await createStation(t.db, network.id, station);
    await createStation(t.db, other.id, foreign);
    caster = await startTestCaster(t.db, { limits: { refusalFlushMs: 100, firstDataWaitMs: 1000 } });
    port = caster.port;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await caster?.close();
    await t?.close();
  });

  async function activeAccount() {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 50);
    const { account, password } = await createAccount(t, user);
    expect((await activate(t, user, account.id, network.id, 1)).statusCode).toBe(201);
    return { user, account, password };
  }

  async function refusals(user: TestUser, accountId: string): Promise<Refusal[]> {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/ntrip-accounts/${accountId}/refusals`,
      headers: user.headers,
    });
    expect(res.statusCode).toBe(200);
    return (res.json() as { items: Refusal[] }).items;
  }

  /** The account's list, once an entry of `reason` shows in it (the caster writes about once a second). */
  async function refusal(user: TestUser, accountId: string, reason: Refusal['reason']): Promise<Refusal> {
    const deadline = Date.now() + 8000;
    for (;;) {
      const found = (await refusals(user, accountId)).find((r) => r.reason === reason);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no ${reason} entry`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  describe.each([1, 2] as const)('NTRIP %i', (version) => {
    const ua = version === 1 ? 'NTRIP RTKLIB/2.4.3' : 'NTRIP Test2/1.0';

    it('lists a wrong password with the rover that sent it', async () => {
      const { user, account } = await activeAccount();
      const { answer } = await attempt(port, head(station, version, account.username, 'not-the-password'));
      expect(answer).toMatch(/ 401 /);
      expect(await refusal(user, account.id, 'wrong_password')).toMatchObject({
        count: 1,
        mountpoint: station,
        remoteAddress: '127.0.0.1',
        userAgent: ua,
        ntripVersion: version,
        tls: false,
        detail: {},
      });
    });

    it('lists a disabled account', async () => {
      const { user, account, password } = await activeAccount();
      await t.app.inject({
        method: 'PATCH',
        url: `/api/ntrip-accounts/${account.id}`,
        headers: user.headers,
        payload: { enabled: false },
      });
      expect((await attempt(port, head(station, version, account.username, password))).answer).toMatch(/ 403 /);
      expect((await refusal(user, account.id, 'account_disabled')).detail).toEqual({ disabled: 'account' });
    });

    it('lists a network never activated, and one whose access ended, with the date', async () => {
      const { user, account, password } = await activeAccount();
      expect((await attempt(port, head(foreign, version, account.username, password))).answer).toMatch(/ 403 /);
      expect((await refusal(user, account.id, 'no_access')).detail).toEqual({
        network: { slug: other.slug, name: `Network ${other.slug}` },
        accessEndedAt: null,
      });

      const ended = new Date(Date.now() - 3 * 86_400_000);
      await sql`UPDATE access_grants SET valid_from = ${new Date(ended.getTime() - 86_400_000)}, valid_until = ${ended}
        WHERE account_id = ${account.id}`.execute(t.db);
      caster.authorizer.invalidate();
      expect((await attempt(port, head(station, version, account.username, password))).answer).toMatch(/ 403 /);
      const deadline = Date.now() + 8000;
      let mine: Refusal | undefined;
      while (!mine && Date.now() < deadline) {
        mine = (await refusals(user, account.id)).find((r) => r.reason === 'no_access' && r.mountpoint === station);
        if (!mine) await new Promise((r) => setTimeout(r, 100));
      }
      expect(mine?.detail).toEqual({
        network: { slug: network.slug, name: `Network ${network.slug}` },
        accessEndedAt: ended.toISOString(),
      });
    });

    it('lists a rover over the connection limit with the limit and the rover already connected', async () => {
      const { user, account, password } = await activeAccount();
      const first = await attempt(port, head(station, version, account.username, password));
      sockets.push(first.socket);
      expect(first.answer).toMatch(/^(ICY 200 OK|HTTP\/1\.1 200)/);
      expect((await attempt(port, head(station, version, account.username, password))).answer).toMatch(/ 429 /);
      const entry = await refusal(user, account.id, 'too_many_connections');
      expect(entry.detail.limit).toBe(1);
      expect(entry.detail.sessions).toEqual([
        { remoteAddress: '127.0.0.1', mountpoint: station, since: expect.any(String), userAgent: ua },
      ]);
      first.socket.destroy();
    });

    it('lists an unknown mountpoint, and a rover on an offline one as it logs in', async () => {
      const { user, account, password } = await activeAccount();
      await attempt(port, head('NO_SUCH_MOUNT', version, account.username, password));
      expect((await refusal(user, account.id, 'unknown_mountpoint')).mountpoint).toBe('NO_SUCH_MOUNT');

      const waiting = await attempt(port, head(station, version, account.username, password));
      sockets.push(waiting.socket);
      expect(waiting.answer).toMatch(/^(ICY 200 OK|HTTP\/1\.1 200)/);
      expect(await refusal(user, account.id, 'mountpoint_offline')).toMatchObject({
        mountpoint: station,
        detail: { offlineAtLogin: true },
      });
      waiting.socket.destroy();
    });

    it('lists a nearest-station rover that sent no position', async () => {
      const { user, account, password } = await activeAccount();
      const near = `${network.slug.toUpperCase()}_NEAR`;
      const rover = await attempt(port, head(near, version, account.username, password));
      sockets.push(rover.socket);
      expect(rover.answer).toMatch(/^(ICY 200 OK|HTTP\/1\.1 200)/);
      expect(await refusal(user, account.id, 'near_no_position')).toMatchObject({ mountpoint: near });
      rover.socket.destroy();
    });

    it('lists attempts the failed-login throttle refused, with the rule', async () => {
      const { user, account } = await activeAccount();
      const answers: string[] = [];
      for (let i = 0; i < 6; i++) {
        answers.push((await attempt(port, head(station, version, account.username, 'wrong'), '127.0.0.3')).answer);
      }
      expect(answers[5]).toMatch(/ 429 /);
      expect(await refusal(user, account.id, 'throttled')).toMatchObject({
        count: 1,
        remoteAddress: '127.0.0.3',
        detail: { throttle: 'pair' },
      });
    });
  });

  it('keeps attempts with unknown usernames in the admin-wide log only', async () => {
    const { user, account } = await activeAccount();
    const name = `nobody-${account.id.slice(0, 8)}`;
    await attempt(port, head(station, 2, name, 'guess'), '127.0.0.4');
    const deadline = Date.now() + 8000;
    let listed: LoginFailure | undefined;
    while (!listed && Date.now() < deadline) {
      const res = await t.app.inject({ method: 'GET', url: '/api/admin/ntrip-login-failures', headers: admin.headers });
      expect(res.statusCode).toBe(200);
      listed = (res.json() as LoginFailurePage).items.find((f) => f.usernames.includes(name));
      if (!listed) await new Promise((r) => setTimeout(r, 100));
    }
    expect(listed).toMatchObject({ reason: 'unknown_username', remoteAddress: '127.0.0.4' });
    expect(await refusals(user, account.id)).toEqual([]);
    const asUser = await t.app.inject({ method: 'GET', url: '/api/admin/ntrip-login-failures', headers: user.headers });
    expect(asUser.statusCode).toBe(403);
  });

  it('answers 404 for another user’s account and lets admins read it', async () => {
    const { user, account } = await activeAccount();
    await attempt(port, head(station, 1, account.username, 'wrong'), '127.0.0.5');
    await refusal(user, account.id, 'wrong_password');
    const stranger = await t.buildUser();
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/ntrip-accounts/${account.id}/refusals`,
      headers: stranger.headers,
    });
    expect(res.statusCode).toBe(404);
    const asAdmin = await t.app.inject({
      method: 'GET',
      url: `/api/admin/ntrip-accounts/${account.id}/refusals`,
      headers: admin.headers,
    });
    expect((asAdmin.json() as { items: Refusal[] }).items.map((r) => r.reason)).toEqual(['wrong_password']);
  });

  it('stores 1,000 wrong passwords for one account as a bounded number of rows', async () => {
    const { user, account } = await activeAccount();
    const all = Array.from({ length: 1000 }, () => head(station, 2, account.username, 'wrong-again'));
    for (let i = 0; i < all.length; i += 50) {
      const answers = await Promise.all(all.slice(i, i + 50).map((r) => attempt(port, r, '127.0.0.6')));
      for (const a of answers) a.socket.destroy();
    }
    const deadline = Date.now() + 10_000;
    let total = 0;
    while (total < 1000 && Date.now() < deadline) {
      total = (await refusals(user, account.id)).reduce((sum, r) => sum + r.count, 0);
      if (total < 1000) await new Promise((r) => setTimeout(r, 200));
    }
    expect(total).toBe(1000);
    const rows = await sql<{ reason: string; count: number }>`
      SELECT reason, count FROM ntrip_refusals WHERE account_id = ${account.id}`.execute(t.db);
    // One row per reason and minute: wrong_password until the pair is locked, throttled after; a run that crosses a
    // minute boundary may add one more of each.
    expect(rows.rows.length).toBeLessThanOrEqual(4);
    expect(new Set(rows.rows.map((r) => r.reason))).toEqual(new Set(['wrong_password', 'throttled']));
  });
});
