import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessChangeReason } from '../../src/modules/ntrip-accounts/index.ts';
import { verifyPassword } from '../../src/shared/password-hash.ts';
import { testDatabaseKind } from '../support/database.ts';
import { activate, balanceOf, createAccount, createNetwork, createStation, grantTokens } from '../support/factories.ts';
import { buildTestApp, type TestContext, type TestUser } from '../support/test-app.ts';
import { grantRows, ledgerRows } from './support.ts';

describe(`NTRIP accounts on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let network: { id: string; slug: string };
  const changes: Array<{ accountId: string; reason: AccessChangeReason }> = [];
  const live = new Map<string, number>();

  beforeAll(async () => {
    t = await buildTestApp({
      ntripAccounts: {
        access: { accessChanged: (c) => void changes.push({ accountId: c.accountId, reason: c.reason }) },
        live: {
          connectionsByAccount: (ids) => new Map(ids.filter((id) => live.has(id)).map((id) => [id, live.get(id) ?? 0])),
        },
      },
    });
    admin = await t.buildAdmin();
    network = await createNetwork(t.db, { price: 10 });
  });
  afterAll(() => t.close());

  it('creates an account with a generated username and a strong password returned once; only a hash is kept', async () => {
    const user = await t.buildUser();
    const { account, password } = await createAccount(t, user, '  Tractor 7  ');
    expect(account).toMatchObject({
      label: 'Tractor 7',
      enabled: true,
      status: 'no_access',
      connectedNow: 0,
      grants: [],
    });
    expect(account.username).toMatch(/^rtk-[a-z0-9]{8}$/);
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
    const stored = await sql<{ password_hash: string }>`
      SELECT password_hash FROM ntrip_accounts WHERE id = ${account.id}`.execute(t.db);
    const hash = stored.rows[0]?.password_hash ?? '';
    expect(hash).not.toContain(password);
    expect(await verifyPassword(password, hash)).toBe(true);

    const list = await t.app.inject({ method: 'GET', url: '/api/ntrip-accounts', headers: user.headers });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(password);
    expect(list.json().items).toHaveLength(1);
  });

  it('validates the label and needs a login', async () => {
    const user = await t.buildUser();
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/ntrip-accounts',
      headers: user.headers,
      payload: { label: ' ' },
    });
    expect(empty.statusCode).toBe(400);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/ntrip-accounts' });
    expect(anonymous.statusCode).toBe(401);
    const anonymousTokens = await t.app.inject({ method: 'POST', url: '/api/tokens', payload: {} });
    expect(anonymousTokens.statusCode).toBe(401);
  });

  it('renames, disables, enables and regenerates the password, telling the caster side', async () => {
    const user = await t.buildUser();
    const { account, password } = await createAccount(t, user);
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/api/ntrip-accounts/${account.id}`,
      headers: user.headers,
      payload: { label: 'Drone' },
    });
    expect(renamed.json()).toMatchObject({ label: 'Drone', enabled: true });
    const disabled = await t.app.inject({
      method: 'PATCH',
      url: `/api/ntrip-accounts/${account.id}`,
      headers: user.headers,
      payload: { enabled: false },
    });
    expect(disabled.json()).toMatchObject({ enabled: false, status: 'disabled' });
    expect(changes).toContainEqual({ accountId: account.id, reason: 'disabled' });

    const regenerated = await t.app.inject({
      method: 'POST',
      url: `/api/ntrip-accounts/${account.id}/password`,
      headers: user.headers,
    });
    expect(regenerated.statusCode).toBe(200);
    const next = regenerated.json().password as string;
    expect(next).not.toBe(password);
    const stored = await sql<{ password_hash: string }>`
      SELECT password_hash FROM ntrip_accounts WHERE id = ${account.id}`.execute(t.db);
    expect(await verifyPassword(next, stored.rows[0]?.password_hash ?? '')).toBe(true);
    expect(await verifyPassword(password, stored.rows[0]?.password_hash ?? '')).toBe(false);
    expect(changes).toContainEqual({ accountId: account.id, reason: 'password' });
  });

  it('one user cannot see, change, delete or activate tokens on another user’s account', async () => {
    const owner = await t.buildUser();
    const other = await t.buildUser();
    await grantTokens(t, admin, other, 100);
    const { account } = await createAccount(t, owner);
    const base = `/api/ntrip-accounts/${account.id}`;
    const attempts = [
      { method: 'GET', url: base },
      { method: 'PATCH', url: base, payload: { label: 'mine now' } },
      { method: 'PATCH', url: base, payload: { enabled: false } },
      { method: 'POST', url: `${base}/password` },
      { method: 'DELETE', url: base },
      { method: 'GET', url: `${base}/mountpoints` },
      { method: 'GET', url: `${base}/sessions` },
      { method: 'GET', url: `${base}/sessions.csv` },
    ] as const;
    for (const a of attempts) {
      const res = await t.app.inject({ ...a, headers: other.headers });
      expect(res.statusCode, `${a.method} ${a.url}`).toBe(404);
    }
    const list = await t.app.inject({ method: 'GET', url: '/api/ntrip-accounts', headers: other.headers });
    expect(list.json().items).toEqual([]);

    const activation = await activate(t, other, account.id, network.id);
    expect(activation.statusCode).toBe(404);
    expect(await balanceOf(t, other)).toBe(100);
    expect(await grantRows(t.db, account.id)).toEqual([]);

    const mine = await t.app.inject({ method: 'GET', url: base, headers: owner.headers });
    expect(mine.json()).toMatchObject({ label: 'Rover 1', enabled: true });
  });

  it('activation spends price per day × days and writes the grant; an extension starts where the current one ends', async () => {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 100);
    const { account } = await createAccount(t, user);
    const first = await activate(t, user, account.id, network.id, 3);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      tokensSpent: 30,
      tokenAmount: 70,
      grant: { networkId: network.id, source: 'tokens' },
    });
    const second = await activate(t, user, account.id, network.id, 2);
    expect(second.statusCode).toBe(201);
    expect(second.json().tokenAmount).toBe(50);
    const grants = await grantRows(t.db, account.id);
    expect(grants).toHaveLength(2);
    const [a, b] = grants;
    expect(new Date(b?.valid_from ?? 0).getTime()).toBe(new Date(a?.valid_until ?? 0).getTime());
    expect(new Date(b?.valid_until ?? 0).getTime() - new Date(a?.valid_from ?? 0).getTime()).toBe(5 * 86_400_000);

    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/ntrip-accounts/${account.id}`,
      headers: user.headers,
    });
    expect(listed.json()).toMatchObject({ status: 'active' });
    expect(listed.json().grants).toHaveLength(2);
    expect(changes).toContainEqual({ accountId: account.id, reason: 'grant' });
    expect(await ledgerRows(t.db, user.userId)).toEqual([
      { kind: 'admin_grant', delta: 100, balance_after: 100 },
      { kind: 'activation_spend', delta: -30, balance_after: 70 },
      { kind: 'activation_spend', delta: -20, balance_after: 50 },
    ]);
    // The history's note is a code with its values, for the SPA to word in the reader's language (issue 32).
    const history = await t.app.inject({ method: 'GET', url: '/api/tokens/history', headers: user.headers });
    expect(history.json().entries[0]).toMatchObject({
      kind: 'activation_spend',
      noteCode: 'activation',
      noteParams: { days: 2, network: expect.any(String), account: account.username },
    });
  });

  it('a token activation after a support grant starts where that grant ends, not over days already given', async () => {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 100);
    const { account } = await createAccount(t, user);
    const support = await t.app.inject({
      method: 'POST',
      url: `/api/admin/ntrip-accounts/${account.id}/grants`,
      headers: admin.headers,
      payload: { networkId: network.id, days: 2 },
    });
    expect(support.statusCode).toBe(201);
    const res = await activate(t, user, account.id, network.id, 1);
    expect(res.statusCode).toBe(201);
    expect(res.json().grant.validFrom).toBe(support.json().validUntil);
    expect(Date.parse(res.json().grant.validUntil) - Date.parse(support.json().validUntil)).toBe(86_400_000);
  });

  it('activation with too few tokens answers 402 insufficient_tokens and changes nothing', async () => {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 15);
    const { account } = await createAccount(t, user);
    const res = await activate(t, user, account.id, network.id, 2);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ code: 'insufficient_tokens', needed: 20, balance: 15 });
    expect(await balanceOf(t, user)).toBe(15);
    expect(await grantRows(t.db, account.id)).toEqual([]);
    expect(await ledgerRows(t.db, user.userId)).toHaveLength(1);

    const none = await t.buildUser();
    const { account: empty } = await createAccount(t, none);
    const broke = await activate(t, none, empty.id, network.id, 1);
    expect(broke.statusCode).toBe(402);
    expect(await grantRows(t.db, empty.id)).toEqual([]);
  });

  it('refuses unknown, retired and free networks', async () => {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 100);
    const { account } = await createAccount(t, user);
    const retired = await createNetwork(t.db, { status: 'retired' });
    const free = await createNetwork(t.db, { price: 0 });
    expect((await activate(t, user, account.id, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await activate(t, user, account.id, retired.id)).json()).toMatchObject({ code: 'network_not_activatable' });
    expect((await activate(t, user, account.id, free.id)).statusCode).toBe(409);
    expect((await activate(t, user, account.id, network.id, 0)).statusCode).toBe(400);
    expect(await balanceOf(t, user)).toBe(100);
  });

  it('20 concurrent activations on one balance never overspend', async () => {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 100);
    const accounts = [await createAccount(t, user, 'A'), await createAccount(t, user, 'B')];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => activate(t, user, accounts[i % 2]?.account.id ?? '', network.id, 1)),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(10);
    expect(codes.filter((c) => c === 402)).toHaveLength(10);
    expect(await balanceOf(t, user)).toBe(0);
    const ledger = await ledgerRows(t.db, user.userId);
    expect(ledger.reduce((sum, e) => sum + e.delta, 0)).toBe(0);
    expect(ledger.every((e) => e.balance_after >= 0)).toBe(true);
    let granted = 0;
    for (const { account } of accounts) {
      const grants = await grantRows(t.db, account.id);
      granted += grants.length;
      // Each account's activations chain one after another without overlap.
      for (let i = 1; i < grants.length; i++) {
        expect(new Date(grants[i]?.valid_from ?? 0).getTime()).toBe(
          new Date(grants[i - 1]?.valid_until ?? 0).getTime(),
        );
      }
    }
    // One grant per successful activation, whichever account it was for.
    expect(granted).toBe(10);
  });

  it('deleting an account ends its grants, hides it and closes its connections through the caster side', async () => {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 100);
    const { account } = await createAccount(t, user);
    const { account: kept } = await createAccount(t, user, 'Kept');
    await activate(t, user, account.id, network.id, 2);
    await activate(t, user, kept.id, network.id, 1);

    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/ntrip-accounts/${account.id}`,
      headers: user.headers,
    });
    expect(res.statusCode).toBe(204);
    expect(changes).toContainEqual({ accountId: account.id, reason: 'deleted' });
    const grants = await grantRows(t.db, account.id);
    expect(grants.every((g) => g.ended_at !== null)).toBe(true);
    expect((await grantRows(t.db, kept.id)).every((g) => g.ended_at === null)).toBe(true);
    const row = await sql<{ enabled: boolean; deleted_at: Date | null }>`
      SELECT enabled, deleted_at FROM ntrip_accounts WHERE id = ${account.id}`.execute(t.db);
    expect(row.rows[0]).toMatchObject({ enabled: false });
    expect(row.rows[0]?.deleted_at).not.toBeNull();

    const list = await t.app.inject({ method: 'GET', url: '/api/ntrip-accounts', headers: user.headers });
    expect(list.json().items.map((a: { id: string }) => a.id)).toEqual([kept.id]);
    expect((await activate(t, user, account.id, network.id)).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/ntrip-accounts/${account.id}`, headers: user.headers }))
        .statusCode,
    ).toBe(404);
  });

  it('lists the mountpoints an account may use, the nearest-station mountpoint of each network first', async () => {
    const user = await t.buildUser();
    await grantTokens(t, admin, user, 100);
    const net = await createNetwork(t.db);
    await createStation(t.db, net.id, `ZB${net.slug.slice(-4)}`);
    await createStation(t.db, net.id, `AA${net.slug.slice(-4)}`);
    const { account } = await createAccount(t, user);
    const before = await t.app.inject({
      method: 'GET',
      url: `/api/ntrip-accounts/${account.id}/mountpoints`,
      headers: user.headers,
    });
    expect(before.json().items).toEqual([]);
    await activate(t, user, account.id, net.id, 1);
    const after = await t.app.inject({
      method: 'GET',
      url: `/api/ntrip-accounts/${account.id}/mountpoints`,
      headers: user.headers,
    });
    expect(after.json().items.map((m: { mountpoint: string }) => m.mountpoint)).toEqual([
      `${net.slug.toUpperCase()}_NEAR`,
      `AA${net.slug.slice(-4)}`,
      `ZB${net.slug.slice(-4)}`,
    ]);
    // Stations carry their position so the connection card can sort them by distance from the rover.
    expect(after.json().items[0]).toMatchObject({ kind: 'near', latitude: null, longitude: null });
    expect(after.json().items[1]).toMatchObject({ kind: 'station', latitude: 52, longitude: 5 });
  });

  it('pages the connection log, newest first, reports live connections, and downloads it as CSV', async () => {
    const user = await t.buildUser();
    const { account } = await createAccount(t, user);
    const start = Date.parse('2026-11-01T10:00:00Z');
    for (let i = 0; i < 25; i++) {
      const last = i === 24;
      await sql`INSERT INTO ntrip_sessions (account_id, mountpoint, remote_address, started_at, ended_at, bytes_sent, end_reason,
          last_gga_lat, last_gga_lon, user_agent, served_station, distance_km, fixed_share, float_share)
        VALUES (${account.id}, ${'MP,"X"'}, '192.0.2.7', ${new Date(start + i * 3_600_000)}, ${new Date(start + i * 3_600_000 + 90_000)},
          ${1000 + i}, 'client_closed', ${last ? 52.1 : null}, ${last ? 5.2 : null}, ${last ? '=NTRIP evil' : null},
          ${last ? 'DLFT00NLD0' : null}, ${last ? 1.4567 : null}, ${last ? 0.85 : null}, ${last ? 0.1 : null})`.execute(
        t.db,
      );
    }
    live.set(account.id, 2);
    const page1 = await t.app.inject({
      method: 'GET',
      url: `/api/ntrip-accounts/${account.id}/sessions?limit=10`,
      headers: user.headers,
    });
    expect(page1.statusCode).toBe(200);
    const body = page1.json();
    expect(body).toMatchObject({ total: 25, limit: 10, offset: 0 });
    expect(body.items).toHaveLength(10);
    expect(body.items[0]).toMatchObject({
      durationSeconds: 90,
      bytesSent: 1024,
      endReason: 'client_closed',
      lastPosition: { latitude: 52.1, longitude: 5.2 },
    });
    const page3 = await t.app.inject({
      method: 'GET',
      url: `/api/ntrip-accounts/${account.id}/sessions?limit=10&offset=20`,
      headers: user.headers,
    });
    expect(page3.json().items).toHaveLength(5);

    const one = await t.app.inject({ method: 'GET', url: `/api/ntrip-accounts/${account.id}`, headers: user.headers });
    expect(one.json()).toMatchObject({
      connectedNow: 2,
      lastSeenAt: new Date(start + 24 * 3_600_000 + 90_000).toISOString(),
    });

    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/ntrip-accounts/${account.id}/sessions.csv`,
      headers: user.headers,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain(`ntrip-sessions-${account.username}.csv`);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'started_at,ended_at,duration_s,mountpoint,bytes_sent,end_reason,last_latitude,last_longitude,remote_address,' +
        'client,served_station,distance_km,fixed_share,float_share',
    );
    expect(lines).toHaveLength(26);
    // The rover's own User-Agent is defused like any text a spreadsheet could take for a formula.
    expect(lines[1]).toBe(
      `${new Date(start + 24 * 3_600_000).toISOString()},${new Date(start + 24 * 3_600_000 + 90_000).toISOString()},90,"MP,""X""",1024,client_closed,52.1,5.2,192.0.2.7,'=NTRIP evil,DLFT00NLD0,1.457,0.85,0.1`,
    );
    // A session without GGA leaves the telemetry empty.
    expect(lines[2]).toMatch(/,192\.0\.2\.7,,,,,$/);
  });

  describe('admin', () => {
    it('lists every account with its owner, searches, disables and grants access manually; others get 403', async () => {
      const owner = await t.buildUser({ email: `searchable-${Date.now()}@example.test` });
      const { account } = await createAccount(t, owner, 'Survey van');
      const plain = await t.buildUser();
      expect(
        (await t.app.inject({ method: 'GET', url: '/api/admin/ntrip-accounts', headers: plain.headers })).statusCode,
      ).toBe(403);
      expect(
        (
          await t.app.inject({
            method: 'PATCH',
            url: `/api/admin/ntrip-accounts/${account.id}`,
            headers: plain.headers,
            payload: { enabled: false },
          })
        ).statusCode,
      ).toBe(403);

      const all = await t.app.inject({
        method: 'GET',
        url: '/api/admin/ntrip-accounts?limit=100',
        headers: admin.headers,
      });
      expect(all.statusCode).toBe(200);
      expect(all.json().total).toBeGreaterThan(1);
      const found = await t.app.inject({
        method: 'GET',
        url: `/api/admin/ntrip-accounts?search=${encodeURIComponent(owner.email)}`,
        headers: admin.headers,
      });
      expect(found.json().items).toEqual([
        expect.objectContaining({ id: account.id, ownerEmail: owner.email, ownerUserId: owner.userId }),
      ]);
      const byUsername = await t.app.inject({
        method: 'GET',
        url: `/api/admin/ntrip-accounts?search=${account.username}`,
        headers: admin.headers,
      });
      expect(byUsername.json().total).toBe(1);

      const disabled = await t.app.inject({
        method: 'PATCH',
        url: `/api/admin/ntrip-accounts/${account.id}`,
        headers: admin.headers,
        payload: { enabled: false },
      });
      expect(disabled.json()).toMatchObject({ enabled: false, status: 'disabled', ownerEmail: owner.email });
      expect(changes).toContainEqual({ accountId: account.id, reason: 'disabled' });

      const grant = await t.app.inject({
        method: 'POST',
        url: `/api/admin/ntrip-accounts/${account.id}/grants`,
        headers: admin.headers,
        payload: { networkId: network.id, days: 7 },
      });
      expect(grant.statusCode).toBe(201);
      expect(grant.json()).toMatchObject({ source: 'manual', networkId: network.id });
      const rows = await grantRows(t.db, account.id);
      expect(rows).toHaveLength(1);
      expect(new Date(rows[0]?.valid_until ?? 0).getTime() - new Date(rows[0]?.valid_from ?? 0).getTime()).toBe(
        7 * 86_400_000,
      );
      expect(await balanceOf(t, owner)).toBe(0);
    });

    it('sets an account’s most concurrent connections; bounds, unknown ids and non-admins change nothing', async () => {
      const owner = await t.buildUser();
      const { account } = await createAccount(t, owner, 'Drone fleet');
      const url = `/api/admin/ntrip-accounts/${account.id}/max-connections`;
      const stored = async () =>
        (
          await sql<{ max_connections: number }>`
            SELECT max_connections FROM ntrip_accounts WHERE id = ${account.id}`.execute(t.db)
        ).rows[0]?.max_connections;
      expect(await stored()).toBe(1);

      const set = await t.app.inject({ method: 'PUT', url, headers: admin.headers, payload: { maxConnections: 5 } });
      expect(set.statusCode).toBe(200);
      expect(set.json()).toMatchObject({ id: account.id, maxConnections: 5, ownerEmail: owner.email });
      expect(await stored()).toBe(5);
      expect(changes).toContainEqual({ accountId: account.id, reason: 'limit' });
      const own = await t.app.inject({
        method: 'GET',
        url: `/api/ntrip-accounts/${account.id}`,
        headers: owner.headers,
      });
      expect(own.json().maxConnections).toBe(5);

      for (const payload of [{ maxConnections: 0 }, { maxConnections: 101 }, { maxConnections: 2.5 }, {}]) {
        const res = await t.app.inject({ method: 'PUT', url, headers: admin.headers, payload });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'validation_failed', field: 'maxConnections' });
      }
      const unknown = await t.app.inject({
        method: 'PUT',
        url: '/api/admin/ntrip-accounts/00000000-0000-4000-8000-000000000000/max-connections',
        headers: admin.headers,
        payload: { maxConnections: 2 },
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ code: 'not_found' });

      const byOwner = await t.app.inject({
        method: 'PUT',
        url,
        headers: owner.headers,
        payload: { maxConnections: 50 },
      });
      expect(byOwner.statusCode).toBe(403);
      const anonymous = await t.app.inject({ method: 'PUT', url, payload: { maxConnections: 50 } });
      expect(anonymous.statusCode).toBe(401);
      expect(await stored()).toBe(5);

      await t.app.inject({ method: 'DELETE', url: `/api/ntrip-accounts/${account.id}`, headers: owner.headers });
      const deleted = await t.app.inject({
        method: 'PUT',
        url,
        headers: admin.headers,
        payload: { maxConnections: 2 },
      });
      expect(deleted.statusCode).toBe(404);
    });
  });
});
