import { randomUUID } from 'node:crypto';
import type { Network, Station } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailModule, type MailModule } from '../src/modules/mail/index.ts';
import { testDatabaseKind } from './support/database.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

const MINUTE = 60_000;
const GRACE = 5 * MINUTE;

/**
 * Outage alerts (issue 33 point 4, docs/adr/0070-outage-alerts.md): from the recorded state changes of a station and
 * the connection log, the customers whose rovers it served get one "down" and one "back" mail per incident longer
 * than the grace, admins the same for every station, through the outbox; a blip, a customer elsewhere, an old
 * session and a customer who turned it off get nothing; two processes checking at once queue one pair. The owner of
 * a station's base, named on its feed, gets the pair of that station too.
 */
describe(`outage alerts on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let network: Network;
  let near: Station;
  let far: Station;
  // Two API processes' checks on the same database, each with a clock the test moves ahead of the real one.
  let processes: MailModule[];
  let ahead = 0;
  const users: Record<string, TestUser> = {};

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, user: TestUser, payload?: object) =>
    t.app.inject({ method, url, headers: user.headers, payload });

  async function setState(station: Station, state: { status?: 'online' | 'offline'; failing?: string[] }) {
    await t.db
      .updateTable('stations')
      .set({
        ...(state.status && { status: state.status }),
        ...(state.failing && {
          integrity_state: state.failing.length ? 'failing' : 'ok',
          integrity_reasons: JSON.stringify(
            state.failing.map((code) => ({ code, level: 'failing', message: code, since: new Date().toISOString() })),
          ),
        }),
      })
      .where('id', '=', station.id)
      .execute();
  }

  /** A rover session of the user's own NTRIP account, ended `daysAgo` days ago. */
  async function session(
    user: TestUser,
    s: { mountpoint: string; servedStation?: string; gga?: [number, number]; daysAgo?: number },
  ) {
    const account = await t.db
      .insertInto('ntrip_accounts')
      .values({ owner_user_id: user.userId, username: `rover-${randomUUID().slice(0, 8)}`, password_hash: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ended = new Date(Date.now() - (s.daysAgo ?? 1) * 86_400_000);
    await t.db
      .insertInto('ntrip_sessions')
      .values({
        account_id: account.id,
        mountpoint: s.mountpoint,
        remote_address: '192.0.2.7',
        started_at: new Date(ended.getTime() - 3_600_000),
        ended_at: ended,
        served_station: s.servedStation ?? null,
        last_gga_lat: s.gga?.[0] ?? null,
        last_gga_lon: s.gga?.[1] ?? null,
      })
      .execute();
  }

  /** Both processes check at once, `minutes` after now. */
  async function checkAt(minutes: number) {
    ahead = minutes * MINUTE;
    return Promise.all(processes.map((p) => p.notices.stations.run()));
  }

  async function outbox(user: TestUser) {
    return t.db
      .selectFrom('mail_outbox')
      .select(['kind', 'subject', 'text_body', 'locale'])
      .where('user_id', '=', user.userId)
      .where('kind', 'in', ['station_down', 'station_up'])
      .orderBy('created_at')
      .orderBy('kind')
      .execute();
  }

  beforeAll(async () => {
    t = await buildTestApp({ mail: { send: false, accessCheckMs: false, stationAlertCheckMs: false } });
    processes = [1, 2].map(() =>
      createMailModule(
        t.db,
        { secretKey: Buffer.alloc(32, 7).toString('base64'), publicUrl: 'https://portal.example', log: console },
        {
          send: false,
          accessCheckMs: false,
          stationAlertCheckMs: false,
          stationAlertGraceMs: GRACE,
          clock: () => new Date(Date.now() + ahead),
        },
      ),
    );
    admin = await t.buildAdmin();
    network = (await call('POST', '/api/admin/networks', admin, { name: 'Alert RTK' })).json() as Network;
    const station = async (mountpoint: string, latitude: number, longitude: number) =>
      (
        await call('POST', '/api/admin/stations', admin, {
          networkId: network.id,
          mountpoint,
          country: 'NLD',
          latitude,
          longitude,
        })
      ).json() as Station;
    near = await station('ALRT00NLD0', 52.0, 5.0);
    far = await station('ALRT01NLD0', 53.2, 6.5);
    // Both have been good: an incident is a change from good to out of order.
    await setState(near, { status: 'online' });
    await setState(far, { status: 'online' });

    const nearMount = `${network.slug.toUpperCase()}_NEAR`;
    for (const name of ['gga', 'direct', 'elsewhere', 'optedOut', 'longAgo']) users[name] = await t.buildUser();
    // Nearest-station rover whose last GGA was 6 km from the station (no recorded choice).
    await session(users.gga as TestUser, { mountpoint: nearMount, gga: [52.05, 5.05] });
    // The station's own mountpoint, in Dutch.
    await session(users.direct as TestUser, { mountpoint: 'ALRT00NLD0' });
    await call('PUT', '/api/user/notifications', users.direct as TestUser, { locale: 'nl' });
    // Rovers that worked near the other station only.
    await session(users.elsewhere as TestUser, {
      mountpoint: nearMount,
      gga: [53.21, 6.49],
      servedStation: 'ALRT01NLD0',
    });
    await session(users.elsewhere as TestUser, { mountpoint: 'ALRT01NLD0' });
    // Served, but turned the alerts off in /settings.
    await session(users.optedOut as TestUser, { mountpoint: nearMount, servedStation: 'ALRT00NLD0' });
    const off = await call('PUT', '/api/user/notifications', users.optedOut as TestUser, { stationAlerts: false });
    expect(off.json().stationAlerts).toBe(false);
    // Served 40 days ago: not in the last 30.
    await session(users.longAgo as TestUser, { mountpoint: 'ALRT00NLD0', daysAgo: 40 });
  });
  afterAll(async () => {
    for (const p of processes ?? []) await p.close();
    await t?.close();
  });

  it('sends nothing for a blip shorter than the grace', async () => {
    await setState(near, { status: 'offline' });
    await checkAt(1);
    await setState(near, { status: 'online' });
    await checkAt(GRACE / MINUTE + 10);
    for (const user of [admin, ...Object.values(users)]) expect(await outbox(user)).toEqual([]);
  });

  it('mails the customers served near the station and the admins one "down" and one "back", once', async () => {
    await setState(near, { status: 'offline' });
    await checkAt(GRACE / MINUTE - 1);
    expect(await outbox(users.gga as TestUser)).toEqual([]);

    const [first, second] = await checkAt(GRACE / MINUTE + 1);
    // One of the two processes claimed the incident; the other found it claimed.
    expect((first?.mails ?? 0) + (second?.mails ?? 0)).toBe(3);
    await checkAt(GRACE / MINUTE + 2);
    await setState(near, { status: 'online' });
    await checkAt(GRACE / MINUTE + 3);
    await checkAt(GRACE / MINUTE + 4);

    const gga = await outbox(users.gga as TestUser);
    expect(gga.map((m) => m.kind)).toEqual(['station_down', 'station_up']);
    expect(gga[0]?.subject).toBe('Outage: station ALRT00NLD0 (Alert RTK)');
    expect(gga[0]?.text_body).toContain('has sent no corrections since');
    expect(gga[0]?.text_body).toContain(`Rovers on ${network.slug.toUpperCase()}_NEAR move to the next good station`);
    expect(gga[1]?.subject).toBe('Resolved: station ALRT00NLD0 (Alert RTK) works again');

    const direct = await outbox(users.direct as TestUser);
    expect(direct.map((m) => [m.kind, m.locale])).toEqual([
      ['station_down', 'nl'],
      ['station_up', 'nl'],
    ]);
    expect(direct[0]?.subject).toBe('Storing: station ALRT00NLD0 (Alert RTK)');

    const operator = await outbox(admin);
    expect(operator.map((m) => m.kind)).toEqual(['station_down', 'station_up']);
    expect(operator[0]?.text_body).not.toContain('Your rovers used this station');

    for (const name of ['elsewhere', 'optedOut', 'longAgo']) {
      expect(await outbox(users[name] as TestUser), name).toEqual([]);
    }
  });

  it('names the integrity reason when a station fails its check, to the customers it served', async () => {
    await setState(far, { failing: ['position_moved'] });
    await checkAt(GRACE / MINUTE + 1);
    const elsewhere = await outbox(users.elsewhere as TestUser);
    expect(elsewhere.map((m) => m.kind)).toEqual(['station_down']);
    expect(elsewhere[0]?.text_body).toContain('has failed its integrity check since');
    expect(elsewhere[0]?.text_body).toContain('its reference position moved');
    expect(elsewhere[0]?.text_body).toContain('The mountpoint ALRT01NLD0 itself keeps sending');
    // The customers of the other station hear nothing more.
    expect((await outbox(users.gga as TestUser)).length).toBe(2);

    await setState(far, { failing: [] });
    await checkAt(GRACE / MINUTE + 2);
    expect((await outbox(users.elsewhere as TestUser)).map((m) => m.kind)).toEqual(['station_down', 'station_up']);
  });

  it("mails the owner of a station's base, named on its feed, the pair of that station and of no other", async () => {
    const owner = await t.buildUser();
    const owned = (
      await call('POST', '/api/admin/stations', admin, {
        networkId: network.id,
        mountpoint: 'ALRT02NLD0',
        country: 'NLD',
        latitude: 51.5,
        longitude: 4.0,
      })
    ).json() as Station;
    await setState(owned, { status: 'online' });
    const feed = { kind: 'push', stationId: owned.id, sourcePassword: 'owner-base-secret' };

    // Only someone with a portal account can own a base; the refusal creates nothing.
    const unknown = await call('POST', '/api/admin/feeds', admin, { ...feed, ownerEmail: 'nobody@example.test' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'owner_not_found', field: 'ownerEmail' });
    expect((await call('GET', `/api/admin/feeds?network=${network.slug}`, admin)).json().total).toBe(0);

    const created = await call('POST', '/api/admin/feeds', admin, { ...feed, ownerEmail: owner.email.toUpperCase() });
    expect(created.statusCode).toBe(201);
    expect(created.json().ownerEmail).toBe(owner.email);

    await setState(owned, { status: 'offline' });
    await checkAt(GRACE / MINUTE + 1);
    await setState(owned, { status: 'online' });
    await checkAt(GRACE / MINUTE + 2);
    const mails = await outbox(owner);
    expect(mails.map((m) => m.kind)).toEqual(['station_down', 'station_up']);
    expect(mails[0]?.subject).toBe('Outage: station ALRT02NLD0 (Alert RTK)');
    expect(mails[0]?.text_body).toContain('You are the owner of this base station.');
    expect(mails[1]?.subject).toBe('Resolved: station ALRT02NLD0 (Alert RTK) works again');
    // The customers near the other stations hear nothing of it; the admins do.
    expect((await outbox(users.gga as TestUser)).length).toBe(2);
    expect((await outbox(users.elsewhere as TestUser)).length).toBe(2);
    expect((await outbox(admin)).filter((m) => m.subject.includes('ALRT02NLD0')).map((m) => m.kind)).toEqual([
      'station_down',
      'station_up',
    ]);

    // Without an owner, the next incident mails the former owner nothing.
    const cleared = await call('PATCH', `/api/admin/feeds/${created.json().id}`, admin, { ownerEmail: '' });
    expect(cleared.json().ownerEmail).toBeNull();
    await setState(owned, { status: 'offline' });
    await checkAt(GRACE / MINUTE + 3);
    await setState(owned, { status: 'online' });
    await checkAt(GRACE / MINUTE + 4);
    expect((await outbox(owner)).length).toBe(2);
  });
});
