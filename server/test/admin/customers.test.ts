import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../support/database.ts';
import { buildTestApp, type TestContext, type TestUser } from '../support/test-app.ts';

type Method = 'GET' | 'POST' | 'DELETE';

describe(`the back office's customers and their NTRIP accounts on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let customer: TestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.buildAdmin();
    customer = await t.buildUser({ displayName: 'Carla Customer' });
  });
  afterAll(() => t.close());

  const call = (method: Method, url: string, who?: TestUser, payload?: unknown) =>
    t.app.inject({ method, url: `/api/${url}`, ...(who && { headers: who.headers }), ...(payload ? { payload } : {}) });
  const auditOf = async (targetType: string, targetId: string) =>
    (await call('GET', `admin/audit?targetType=${targetType}&targetId=${targetId}`, admin)).json().items;
  const createFor = (ownerUserId: string, label = 'Tractor 7') =>
    call('POST', 'admin/ntrip-accounts', admin, { ownerUserId, label });

  it('answers 401 anonymous, 403 to a customer, 404 unknown or malformed and 400 with the field on every new call', async () => {
    const created = await createFor(customer.userId, 'Guarded');
    const id = created.json().account.id;
    const unknown = randomUUID();
    const calls: { method: Method; url: string; payload?: unknown; unknownUrl: string; unknownPayload?: unknown }[] = [
      { method: 'GET', url: `admin/users/${customer.userId}`, unknownUrl: `admin/users/${unknown}` },
      {
        method: 'POST',
        url: 'admin/ntrip-accounts',
        payload: { ownerUserId: customer.userId, label: 'x' },
        unknownUrl: 'admin/ntrip-accounts',
        unknownPayload: { ownerUserId: unknown, label: 'Nobody' },
      },
      {
        method: 'POST',
        url: `admin/ntrip-accounts/${id}/password`,
        unknownUrl: `admin/ntrip-accounts/${unknown}/password`,
      },
      {
        method: 'GET',
        url: `admin/ntrip-accounts/${id}/sessions`,
        unknownUrl: `admin/ntrip-accounts/${unknown}/sessions`,
      },
      {
        method: 'GET',
        url: `admin/ntrip-accounts/${id}/live-sessions`,
        unknownUrl: `admin/ntrip-accounts/${unknown}/live-sessions`,
      },
      { method: 'DELETE', url: `admin/ntrip-accounts/${unknown}`, unknownUrl: `admin/ntrip-accounts/${unknown}` },
    ];
    for (const c of calls) {
      expect((await call(c.method, c.url, undefined, c.payload)).statusCode, c.url).toBe(401);
      expect((await call(c.method, c.url, customer, c.payload)).statusCode, c.url).toBe(403);
      const missing = await call(c.method, c.unknownUrl, admin, c.unknownPayload);
      expect(missing.statusCode, c.unknownUrl).toBe(404);
      expect(missing.json().code).toBe('not_found');
    }
    const bad: [Method, string, unknown, string][] = [
      ['POST', 'admin/ntrip-accounts', { ownerUserId: 'nope', label: 'Fine' }, 'ownerUserId'],
      ['POST', 'admin/ntrip-accounts', { ownerUserId: customer.userId, label: '' }, 'label'],
      ['GET', `admin/ntrip-accounts/${id}/sessions?limit=0`, undefined, 'limit'],
    ];
    for (const [method, url, payload, field] of bad) {
      const res = await call(method, url, admin, payload);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().field, url).toBe(field);
    }
    // A malformed id in the path names no record: 404 like an unknown one (ADR 0010).
    const malformed: [Method, string, string][] = [
      ['GET', 'admin/users/not-a-uuid', 'userId'],
      ['POST', 'admin/ntrip-accounts/not-a-uuid/password', 'id'],
      ['GET', 'admin/ntrip-accounts/not-a-uuid/live-sessions', 'id'],
      ['DELETE', 'admin/ntrip-accounts/not-a-uuid', 'id'],
    ];
    for (const [method, url, field] of malformed) {
      const res = await call(method, url, admin);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ code: 'not_found', field });
    }
    await call('DELETE', `admin/ntrip-accounts/${id}`, admin);
  });

  it("shows a customer's profile, balance and ledger, subscriptions, organisations and NTRIP accounts", async () => {
    const person = await t.buildUser({ displayName: 'Piet Profile' });
    await t.app.inject({
      method: 'PUT',
      url: '/api/admin/tokens',
      headers: admin.headers,
      payload: { userId: person.userId, tokenAmount: 50, reason: 'Welcome credit' },
    });
    const orgName = `Org ${randomUUID().slice(0, 6)}`;
    expect((await call('POST', 'organization', person, { name: orgName })).statusCode).toBeLessThan(300);
    await createFor(person.userId, 'Rover A');

    const res = await call('GET', `admin/users/${person.userId}`, admin);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({ id: person.userId, email: person.email, displayName: 'Piet Profile' });
    expect(body.user.termsAcceptedAt).toEqual(expect.any(String));
    expect(body.tokenAmount).toBe(50);
    expect(body.ledger).toEqual([
      expect.objectContaining({ kind: 'admin_grant', delta: 50, balanceAfter: 50, note: 'Welcome credit' }),
    ]);
    expect(body.subscriptions).toEqual([]);
    expect(body.organizations).toEqual([expect.objectContaining({ name: orgName, role: 'owner' })]);
    expect(body.invoices).toEqual([]);
    expect(body.ntripAccounts).toEqual([
      expect.objectContaining({ label: 'Rover A', enabled: true, connectedNow: 0, status: 'no_access' }),
    ]);
  });

  it('creates an NTRIP account for a customer, who sees it; its password is shown once and never logged', async () => {
    const created = await createFor(customer.userId, 'Excavator 3');
    expect(created.statusCode).toBe(201);
    const { account, password } = created.json();
    expect(password).toEqual(expect.any(String));
    expect(password.length).toBeGreaterThanOrEqual(12);

    const mine = (await call('GET', 'ntrip-accounts', customer)).json();
    expect(mine.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: account.id, label: 'Excavator 3' })]),
    );
    const [entry] = await auditOf('ntrip_account', account.id);
    expect(entry).toMatchObject({
      action: 'ntrip_account.create',
      actorUserId: admin.userId,
      before: null,
      after: { ownerUserId: customer.userId, label: 'Excavator 3', username: account.username },
    });
    expect(JSON.stringify(entry)).not.toContain(password);
  });

  it('resets the password (shown once), lists sessions and live sessions, and deletes with an audit entry each', async () => {
    const { account, password } = (await createFor(customer.userId, 'Drone')).json();
    const reset = await call('POST', `admin/ntrip-accounts/${account.id}/password`, admin);
    expect(reset.statusCode).toBe(200);
    expect(reset.json().password).not.toBe(password);
    expect(reset.json().account.id).toBe(account.id);

    const sessions = await call('GET', `admin/ntrip-accounts/${account.id}/sessions`, admin);
    expect(sessions.json()).toMatchObject({ items: [], total: 0, limit: 20, offset: 0 });
    const live = await call('GET', `admin/ntrip-accounts/${account.id}/live-sessions`, admin);
    expect(live.json().items).toEqual([]);

    expect((await call('DELETE', `admin/ntrip-accounts/${account.id}`, admin)).statusCode).toBe(204);
    const mine = (await call('GET', 'ntrip-accounts', customer)).json();
    expect(JSON.stringify(mine)).not.toContain(account.id);
    expect((await call('DELETE', `admin/ntrip-accounts/${account.id}`, admin)).statusCode).toBe(404);

    const entries = await auditOf('ntrip_account', account.id);
    expect(entries.map((e: { action: string }) => e.action)).toEqual([
      'ntrip_account.delete',
      'ntrip_account.reset_password',
      'ntrip_account.create',
    ]);
    expect(entries[0].before).toMatchObject({ label: 'Drone', enabled: true });
    expect(JSON.stringify(entries)).not.toContain(reset.json().password);
    expect(JSON.stringify(entries)).not.toMatch(/scrypt|password_hash/);
  });
});
