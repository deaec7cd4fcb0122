import { randomUUID } from 'node:crypto';
import { adminOrganizationSummarySchema } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizer } from '../../src/modules/ntrip/ntrip.authorizer.ts';
import { createNtripRepo } from '../../src/modules/ntrip/ntrip.repo.ts';

import { testDatabaseKind } from '../support/database.ts';
import { createAccount, createNetwork, createStation } from '../support/factories.ts';
import { buildTestApp, type TestContext, type TestUser } from '../support/test-app.ts';

describe(`organisations in the back office on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let owner: TestUser;
  let orgId: string;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.buildAdmin();
    owner = await t.buildUser();
    const created = await call('POST', '/api/organization', owner, { name: `Dike Works ${randomUUID().slice(0, 6)}` });
    orgId = new URL(created.json().value, 'http://portal.test').searchParams.get('org') ?? '';
    await call('POST', `/api/org/${orgId}/invites`, owner, { email: 'new.hire@example.test' });
  });
  afterAll(() => t.close());

  function call(method: 'GET' | 'POST' | 'PATCH', url: string, who?: TestUser, payload?: unknown) {
    return t.app.inject({ method, url, ...(who && { headers: who.headers }), ...(payload ? { payload } : {}) });
  }

  it('answers 401 anonymous, 403 to a customer, 404 unknown or malformed, and 400 with the field', async () => {
    const unknown = randomUUID();
    for (const [method, payload] of [
      ['GET', undefined],
      ['PATCH', { disabled: true }],
    ] as const) {
      expect((await call(method, `/api/admin/organizations/${orgId}`, undefined, payload)).statusCode).toBe(401);
      expect((await call(method, `/api/admin/organizations/${orgId}`, owner, payload)).statusCode).toBe(403);
      const missing = await call(method, `/api/admin/organizations/${unknown}`, admin, payload);
      expect(missing.statusCode).toBe(404);
      const bad = await call(method, '/api/admin/organizations/nope', admin, payload);
      expect(bad.statusCode).toBe(404);
      expect(bad.json()).toMatchObject({ code: 'not_found', field: 'orgId' });
    }
    const noFlag = await call('PATCH', `/api/admin/organizations/${orgId}`, admin, { disabled: 'yes' });
    expect(noFlag.statusCode).toBe(400);
    expect(noFlag.json().field).toBe('disabled');
    expect((await call('GET', `/api/org/${orgId}`, owner)).statusCode).toBe(200);
  });

  it('shows members with roles, invites and subscriptions', async () => {
    const res = await call('GET', `/api/admin/organizations/${orgId}`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      organization: { id: orgId, disabledAt: null },
      members: [{ userId: owner.userId, email: owner.email, role: 'owner' }],
      invites: [{ email: 'new.hire@example.test', status: 'pending' }],
      subscriptions: [],
    });
  });

  it("lists the organisation's NTRIP accounts with their holder; an admin resets and deletes one, audited", async () => {
    const made = await call('POST', `/api/org/${orgId}/ntrip-accounts`, owner, { label: 'Dredger' });
    expect(made.statusCode).toBe(201);
    const accountId: string = made.json().account.id;
    const listed = (await call('GET', `/api/admin/organizations/${orgId}`, admin)).json().ntripAccounts;
    expect(listed).toMatchObject([
      {
        id: accountId,
        label: 'Dredger',
        organization: { id: orgId, holderUserId: owner.userId, holderEmail: owner.email },
      },
    ]);
    // The detail stays an admin's: a member reads the organisation's accounts through /org/…
    expect((await call('GET', `/api/admin/organizations/${orgId}`, owner)).statusCode).toBe(403);

    const reset = await call('POST', `/api/admin/ntrip-accounts/${accountId}/password`, admin);
    expect(reset.statusCode).toBe(200);
    expect(reset.json().password).toEqual(expect.any(String));
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/ntrip-accounts/${accountId}`,
      headers: admin.headers,
    });
    expect(removed.statusCode).toBe(204);
    expect((await call('GET', `/api/admin/organizations/${orgId}`, admin)).json().ntripAccounts).toEqual([]);
    const entries = (await call('GET', `/api/admin/audit?targetType=ntrip_account&targetId=${accountId}`, admin)).json()
      .items;
    expect(entries.map((e: { action: string }) => e.action)).toEqual([
      'ntrip_account.delete',
      'ntrip_account.reset_password',
    ]);
  });

  it("disabling refuses the members' organisation calls and its grants at the caster, audited; enabling restores", async () => {
    const network = await createNetwork(t.db);
    const mountpoint = `ORG${randomUUID().slice(0, 6).toUpperCase()}`;
    await createStation(t.db, network.id, mountpoint);
    const { account, password } = await createAccount(t, owner);
    const now = new Date();
    await t.db
      .insertInto('access_grants')
      .values({
        owner_user_id: owner.userId,
        organization_id: orgId,
        account_id: null,
        network_id: network.id,
        valid_from: new Date(now.getTime() - 60_000),
        valid_until: new Date(now.getTime() + 86_400_000),
        source: 'manual',
      })
      .execute();
    const authorizer = createAuthorizer({ repo: createNtripRepo(t.db), ttlMs: 0, epochPollMs: 60_000 });
    const allowed = async () =>
      (await authorizer.authorize(account.username, password, mountpoint, new Date())).allowed;
    try {
      expect(await allowed()).toBe(true);

      const disabled = await call('PATCH', `/api/admin/organizations/${orgId}`, admin, { disabled: true });
      expect(disabled.statusCode).toBe(200);
      // The back office parses the answer with the contract's schema.
      expect(adminOrganizationSummarySchema.parse(disabled.json()).disabledAt).toEqual(expect.any(String));
      const refused = await call('GET', `/api/org/${orgId}/members`, owner);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('organization_disabled');
      expect(await allowed()).toBe(false);
      expect((await call('GET', `/api/admin/organizations/${orgId}`, admin)).json().organization.disabledAt).toBe(
        disabled.json().disabledAt,
      );

      await call('PATCH', `/api/admin/organizations/${orgId}`, admin, { disabled: false });
      expect((await call('GET', `/api/org/${orgId}/members`, owner)).statusCode).toBe(200);
      expect(await allowed()).toBe(true);
    } finally {
      authorizer.close();
    }

    const entries = (await call('GET', `/api/admin/audit?targetType=organization&targetId=${orgId}`, admin)).json()
      .items;
    expect(entries.map((e: { action: string }) => e.action)).toEqual(['organization.enable', 'organization.disable']);
    expect(entries[1]).toMatchObject({ before: { disabledAt: null }, after: { disabledAt: expect.any(String) } });
  });
});
