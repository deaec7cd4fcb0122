import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { WEBHOOK_TOLERANCE_SECONDS, webhookEvents } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../../caster/test/support/wait.ts';
import { createMailModule, type MailModule } from '../../src/modules/mail/index.ts';
import type { CasterService } from '../../src/modules/ntrip/index.ts';
import { createWebhooksModule } from '../../src/modules/webhooks/index.ts';

import { startTestCaster } from '../support/caster.ts';
import { testDatabaseKind } from '../support/database.ts';
import { activate, createAccount, createNetwork, createStation, grantTokens } from '../support/factories.ts';
import { buildTestApp, type TestContext, type TestUser } from '../support/test-app.ts';

/** The check docs/machine-access.md documents, as a receiver would write it. */
function verify(secret: string, header: string, body: string, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > WEBHOOK_TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

interface Received {
  path: string;
  event: string;
  signature: string;
  body: string;
}

/** A receiver on loopback that is down (answers 503) until told otherwise; it keeps what reached it per path. */
async function receiver() {
  const received: Received[] = [];
  let up = false;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (!up) {
        res.writeHead(503).end('down for maintenance');
        return;
      }
      received.push({
        path: req.url ?? '',
        event: String(req.headers['portal-event']),
        signature: String(req.headers['portal-signature']),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    received,
    setUp: (value: boolean) => {
      up = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A rover's NTRIP 2 request; resolves with the socket once the caster answered its first line. */
function rover(port: number, mountpoint: string, user: string, password: string) {
  const auth = Buffer.from(`${user}:${password}`).toString('base64');
  const head = [
    `GET /${mountpoint} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Ntrip-Version: Ntrip/2.0',
    'User-Agent: NTRIP Fleet/1.0',
    `Authorization: Basic ${auth}`,
  ];
  return new Promise<{ socket: net.Socket; answer: string }>((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no answer: ${JSON.stringify(text)}`)), 10_000);
    socket.on('error', () => {});
    socket.on('connect', () => socket.write(`${head.join('\r\n')}\r\n\r\n`));
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

const MINUTE = 60_000;
const quiet = { info() {}, warn() {}, error() {} };

/**
 * Issue 37: every event reaches the webhooks of whoever owns what it is about (a person, or the organisation owning
 * the NTRIP account), signed so the documented check verifies it, retried while the receiver is down.
 */
describe(`webhook events on ${testDatabaseKind()}`, { timeout: 240_000 }, () => {
  let t: TestContext;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let caster: CasterService;
  // Another API process's notices and outage check, on the same database, with a clock the test moves ahead.
  let other: MailModule;
  let side: ReturnType<typeof createWebhooksModule>;
  let ahead = 0;
  let owner: TestUser;
  let orgId: string;
  let station: string;
  let network: { id: string; slug: string };

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, user: TestUser, payload?: object) =>
    t.app.inject({ method, url, headers: user.headers, payload });

  beforeAll(async () => {
    hook = await receiver();
    t = await buildTestApp({
      webhooks: { allowPrivateAddresses: true, pollMs: 50, backoffMs: 200, timeoutMs: 2_000 },
      mail: { send: false, accessCheckMs: false, stationAlertCheckMs: false },
    });
    side = createWebhooksModule(t.db, { send: false }, quiet, { roleOf: async () => undefined });
    other = createMailModule(
      t.db,
      {
        secretKey: Buffer.alloc(32, 7).toString('base64'),
        publicUrl: 'https://portal.example',
        log: quiet,
        observe: (trx, request) => side.fromNotice(trx, request),
        events: (trx, facts) => side.recorder.record(trx, facts),
      },
      {
        send: false,
        accessCheckMs: false,
        stationAlertCheckMs: false,
        stationAlertGraceMs: 5 * MINUTE,
        clock: () => new Date(Date.now() + ahead),
      },
    );
    network = await createNetwork(t.db, { price: 5 });
    station = `WH${network.slug.slice(-6).toUpperCase()}`;
    // The network's only station: when it is down, so is the network.
    await createStation(t.db, network.id, station);
    caster = await startTestCaster(t.db, { limits: { refusalFlushMs: 100, sessionFlushMs: 100 } });
    owner = await t.buildUser();
    const created = await call('POST', '/api/organization', owner, { name: `Fleet ${randomUUID().slice(0, 6)}` });
    orgId = new URL(created.json().value, 'http://portal.test').searchParams.get('org') ?? '';
  });
  afterAll(async () => {
    await caster?.close();
    await other?.close();
    await t?.close();
    await hook?.close();
  });

  async function setStation(status: 'online' | 'offline') {
    // Reported now: the caster's sweep of unconfirmed stations leaves it alone during the test.
    await t.db
      .updateTable('stations')
      .set({ status, status_reported_at: new Date() })
      .where('mountpoint', '=', station)
      .execute();
  }

  it("delivers each event type, signed, to the person's or the organisation's endpoints; retried while down", async () => {
    const admin = await t.buildAdmin();
    const stranger = await t.buildUser();
    const everything = [...webhookEvents];

    // The organisation's endpoints are its owners' and admins' to manage.
    expect(
      (await call('POST', `/api/org/${orgId}/webhooks`, stranger, { url: `${hook.base}/x`, events: everything }))
        .statusCode,
    ).toBe(404);
    const personal = await call('POST', '/api/webhooks', owner, { url: `${hook.base}/person`, events: everything });
    const organisation = await call('POST', `/api/org/${orgId}/webhooks`, owner, {
      url: `${hook.base}/org`,
      events: everything,
    });
    expect(personal.statusCode).toBe(201);
    expect(organisation.statusCode).toBe(201);
    const personalHook = personal.json() as { id: string; secret: string };
    const orgHook = organisation.json() as { id: string; secret: string };
    // Each owner lists only its own.
    expect((await call('GET', '/api/webhooks', owner)).json().items.map((w: { id: string }) => w.id)).toEqual([
      personalHook.id,
    ]);
    expect(
      (await call('GET', `/api/org/${orgId}/webhooks`, owner)).json().items.map((w: { id: string }) => w.id),
    ).toEqual([orgHook.id]);

    // A personal NTRIP account with access, and one of the organisation.
    await grantTokens(t, admin, owner, 50);
    const mine = await createAccount(t, owner);
    expect((await activate(t, owner, mine.account.id, network.id, 1)).statusCode).toBe(201);
    const made = await call('POST', `/api/org/${orgId}/ntrip-accounts`, owner, { label: 'Dredger' });
    expect(made.statusCode).toBe(201);
    const orgAccount = made.json().account as { id: string; username: string };

    // A rover session (its station has no source: the rover also gets a "mountpoint offline" refusal), ended by the
    // rover; two wrong passwords, coalesced into one event; a wrong password on the organisation's account.
    const session = await rover(caster.port, station, mine.account.username, mine.password);
    expect(session.answer).toMatch(/ 200 /);
    for (let i = 0; i < 2; i++) {
      expect((await rover(caster.port, station, mine.account.username, 'wrong-password')).answer).toMatch(/ 401 /);
    }
    expect((await rover(caster.port, station, orgAccount.username, 'wrong-password')).answer).toMatch(/ 401 /);
    await new Promise((r) => setTimeout(r, 300));
    session.socket.end();
    await until(
      async () => {
        const rows = await t.db
          .selectFrom('ntrip_sessions')
          .select('id')
          .where('account_id', '=', mine.account.id)
          .execute();
        return rows.length === 1;
      },
      'the session in the log',
      20_000,
      50,
    );
    // The organisation's account was served by the station yesterday.
    await t.db
      .insertInto('ntrip_sessions')
      .values({
        account_id: orgAccount.id,
        mountpoint: station,
        remote_address: '192.0.2.9',
        started_at: new Date(Date.now() - 26 * 3_600_000),
        ended_at: new Date(Date.now() - 25 * 3_600_000),
      })
      .execute();

    // The station (and with it the network) goes down past the grace, then comes back.
    await setStation('online');
    await setStation('offline');
    ahead = 6 * MINUTE;
    expect(await other.notices.stations.run()).toMatchObject({ opened: 1, networksDown: 1 });
    await setStation('online');
    expect(await other.notices.stations.run()).toMatchObject({ closed: 1, networksUp: 1 });
    // A second check finds nothing new.
    expect(await other.notices.stations.run()).toMatchObject({ opened: 0, closed: 0, networksDown: 0, networksUp: 0 });

    // The person's notices: payments, balance, access, RINEX.
    const notices = [
      {
        kind: 'receipt',
        description: '100 Tokens',
        amount: 1000,
        currency: 'eur',
        paidAt: new Date().toISOString(),
        invoiceNumber: 'INV-2026-000001',
        invoiceUrl: null,
      },
      { kind: 'renewal_failed', description: 'RTK Monthly', amount: 2900, currency: 'eur', invoiceUrl: null },
      { kind: 'low_balance', balance: 40, threshold: 50 },
      { kind: 'access_ending', source: 'tokens', what: 'Wadden RTK', at: new Date().toISOString() },
      { kind: 'access_ended', source: 'subscription', what: 'RTK Monthly', at: new Date().toISOString() },
      {
        kind: 'rinex_ready',
        mountpoint: station,
        windowStart: new Date(Date.now() - 3_600_000).toISOString(),
        windowEnd: new Date().toISOString(),
        expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      },
    ] as const;
    for (const content of notices) {
      await other.mailer.queue(t.db, { key: `${content.kind}:${randomUUID()}`, userId: owner.userId, content });
    }

    // Down: every delivery is attempted, logged with the answer, and kept for a retry.
    const log = async (path: string) =>
      (await call('GET', path, owner)).json().items as {
        event: string;
        status: string;
        attempts: number;
        lastStatusCode: number | null;
      }[];
    await until(
      async () => {
        const items = await log(`/api/webhooks/${personalHook.id}/deliveries`);
        return items.length >= everything.length && items.every((d) => d.attempts >= 1);
      },
      'a first attempt of every delivery',
      20_000,
      50,
    );
    const failing = await log(`/api/webhooks/${personalHook.id}/deliveries`);
    expect(failing.every((d) => d.status === 'pending' && d.lastStatusCode === 503)).toBe(true);
    expect(hook.received).toEqual([]);

    hook.setUp(true);
    // The waits double from the first attempt, so the next retry comes about as long after the receiver is up as it
    // was down: on a loaded machine, tens of seconds.
    await until(
      async () => (await log(`/api/webhooks/${personalHook.id}/deliveries`)).every((d) => d.status === 'succeeded'),
      'every personal delivery to succeed',
      90_000,
      50,
    );
    await until(
      async () =>
        (await log(`/api/org/${orgId}/webhooks/${orgHook.id}/deliveries`)).every((d) => d.status === 'succeeded'),
      'every organisation delivery to succeed',
      90_000,
      50,
    );

    const toPerson = hook.received.filter((r) => r.path === '/person');
    const toOrg = hook.received.filter((r) => r.path === '/org');
    // Every event type reached the person, once each but for the two kinds of refusal; each verifies.
    expect([...new Set(toPerson.map((r) => r.event))].sort()).toEqual([...everything].sort());
    for (const r of toPerson) {
      expect(verify(personalHook.secret, r.signature, r.body), r.event).toBe(true);
      expect(verify(orgHook.secret, r.signature, r.body)).toBe(false);
      // Replayed later: the signed timestamp is too old, so the check refuses it.
      const later = Math.floor(Date.now() / 1000) + WEBHOOK_TOLERANCE_SECONDS + 1;
      expect(verify(personalHook.secret, r.signature, r.body, later)).toBe(false);
      // The body under another timestamp (a replay made to look fresh) needs the secret to sign it.
      const parts = Object.fromEntries(r.signature.split(',').map((p) => p.split('='))) as { t: string; v1: string };
      expect(verify(personalHook.secret, `t=${Number(parts.t) + 1},v1=${parts.v1}`, r.body)).toBe(false);
    }
    const bodies = (list: Received[], event: string) =>
      list
        .filter((r) => r.event === event)
        .map((r) => JSON.parse(r.body) as { event: string; data: Record<string, unknown> });
    const [started] = bodies(toPerson, 'session.started');
    const [ended] = bodies(toPerson, 'session.ended');
    expect(bodies(toPerson, 'session.started')).toHaveLength(1);
    expect(started?.data).toMatchObject({
      account: { id: mine.account.id, username: mine.account.username },
      mountpoint: station,
      remoteAddress: '127.0.0.1',
      userAgent: 'NTRIP Fleet/1.0',
    });
    expect(ended?.data).toMatchObject({
      account: { id: mine.account.id, username: mine.account.username },
      mountpoint: station,
      startedAt: started?.data.startedAt,
      endReason: expect.any(String),
      bytesSent: expect.any(Number),
    });
    const refused = bodies(toPerson, 'attempt.refused')
      .map((b) => b.data.reason)
      .sort();
    expect(refused).toEqual(['mountpoint_offline', 'wrong_password']);
    expect(bodies(toPerson, 'station.down')[0]?.data).toMatchObject({
      station,
      network: { slug: network.slug },
      offline: true,
      causes: [],
    });
    expect(bodies(toPerson, 'station.up')[0]?.data).toMatchObject({ station, since: expect.any(String) });
    expect(bodies(toPerson, 'network.down')[0]?.data).toMatchObject({ network: { slug: network.slug } });
    expect(bodies(toPerson, 'network.up')[0]?.data).toMatchObject({ network: { slug: network.slug } });
    expect(bodies(toPerson, 'balance.low')[0]?.data).toEqual({ balance: 40, threshold: 50 });

    // The organisation's account: its refusal and its station's and network's outage, to the organisation only.
    expect(toOrg.map((r) => r.event).sort()).toEqual([
      'attempt.refused',
      'network.down',
      'network.up',
      'station.down',
      'station.up',
    ]);
    for (const r of toOrg) expect(verify(orgHook.secret, r.signature, r.body)).toBe(true);
    expect(bodies(toOrg, 'attempt.refused')[0]?.data).toMatchObject({
      account: { id: orgAccount.id, username: orgAccount.username },
      reason: 'wrong_password',
    });
    expect(toPerson.some((r) => r.body.includes(orgAccount.id))).toBe(false);
  });
});
