import { randomUUID } from 'node:crypto';
import { PORTAL_SETTINGS_DEFAULTS } from '@portal/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNtripRepo } from '../src/modules/ntrip/ntrip.repo.ts';
import { payOnSandbox, standardProducts, startCheckout } from './billing/support.ts';

import { testDatabaseKind } from './support/database.ts';
import { activate, createAccount, createNetwork, createStation, grantTokens } from './support/factories.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

describe(`admin settings, documents and the operator dashboard on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let admin: TestUser;
  let user: TestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.buildAdmin();
    user = await t.buildUser();
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'PATCH' | 'POST' | 'PUT', url: string, who?: TestUser, payload?: object) =>
    t.app.inject({ method, url, ...(who && { headers: who.headers }), ...(payload && { payload }) });
  const auditOf = async (action: string) =>
    (await call('GET', `/api/admin/audit?action=${action}&limit=200`, admin)).json().items as Array<{
      actorEmail: string;
      targetType: string;
      targetId: string | null;
      before: unknown;
      after: unknown;
    }>;
  const setSettings = async (patch: object) => {
    const res = await call('PATCH', '/api/admin/settings', admin, patch);
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  describe('settings', () => {
    it('answers 401 anonymous and 403 to a user, for reading and writing', async () => {
      expect((await call('GET', '/api/admin/settings')).statusCode).toBe(401);
      expect((await call('PATCH', '/api/admin/settings', undefined, { ntripAccountsPerUser: 2 })).statusCode).toBe(401);
      expect((await call('GET', '/api/admin/settings', user)).statusCode).toBe(403);
      const refused = await call('PATCH', '/api/admin/settings', user, { ntripAccountsPerUser: 2 });
      expect(refused.statusCode).toBe(403);
      expect((await call('GET', '/api/admin/settings', admin)).json().values.ntripAccountsPerUser).toBe(
        PORTAL_SETTINGS_DEFAULTS.ntripAccountsPerUser,
      );
    });

    it.each([
      ['organizationsPerUser', -1],
      ['inviteLifetimeDays', 0],
      ['defaultConnectionsPerAccount', 1000],
      ['ntripAccountsPerUser', 1.5],
      ['accessGraceHours', 'a day'],
      ['signupOpen', true],
    ])('answers 400 naming %s for %j and changes nothing', async (field, value) => {
      const before = (await call('GET', '/api/admin/settings', admin)).json();
      const entries = (await auditOf('settings.update')).length;
      const res = await call('PATCH', '/api/admin/settings', admin, { [field]: value });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed' });
      expect(`${res.json().field ?? ''} ${res.json().message}`).toContain(field);
      expect((await call('GET', '/api/admin/settings', admin)).json()).toEqual(before);
      expect(await auditOf('settings.update')).toHaveLength(entries);
    });

    it('shows a change on the next request, says who made it and audits before and after', async () => {
      const entries = (await auditOf('settings.update')).length;
      const body = await setSettings({ inviteLifetimeDays: 14, organizationsPerUser: 3 });
      expect(body.values.inviteLifetimeDays).toBe(14);
      expect(body.changes).toContainEqual(
        expect.objectContaining({ key: 'inviteLifetimeDays', updatedBy: admin.email }),
      );
      // Only what changed: organizationsPerUser was 3 already.
      const [entry] = await auditOf('settings.update');
      expect(entry).toMatchObject({
        actorEmail: admin.email,
        targetType: 'settings',
        targetId: 'inviteLifetimeDays',
        before: { inviteLifetimeDays: null },
        after: { inviteLifetimeDays: 14 },
      });
      await setSettings({ inviteLifetimeDays: null });
      expect((await call('GET', '/api/admin/settings', admin)).json().values.inviteLifetimeDays).toBeNull();
      expect((await auditOf('settings.update')).length).toBe(entries + 2);
      // Saving what is in force writes nothing and records nothing.
      await setSettings({ inviteLifetimeDays: null });
      expect((await auditOf('settings.update')).length).toBe(entries + 2);
    });

    it('limits NTRIP accounts per user and gives new accounts the default connections, from the next request', async () => {
      const owner = await t.buildUser();
      await setSettings({ ntripAccountsPerUser: 1, defaultConnectionsPerAccount: 3 });
      const { account } = await createAccount(t, owner);
      const row = await t.db
        .selectFrom('ntrip_accounts')
        .select('max_connections')
        .where('id', '=', account.id)
        .executeTakeFirstOrThrow();
      expect(row.max_connections).toBe(3);
      const second = await call('POST', '/api/ntrip-accounts', owner, { label: 'Second' });
      expect(second.statusCode).toBe(409);
      expect(second.json()).toMatchObject({
        code: 'account_limit_reached',
        message: expect.stringContaining('1 NTRIP'),
      });

      await setSettings({ ntripAccountsPerUser: 2, defaultConnectionsPerAccount: 1 });
      expect((await call('POST', '/api/ntrip-accounts', owner, { label: 'Second' })).statusCode).toBe(201);
    });

    it('limits the organisations a user may own, from the next request', async () => {
      const owner = await t.buildUser();
      await setSettings({ organizationsPerUser: 1 });
      const create = () => call('POST', '/api/organization', owner, { name: `Org ${randomUUID().slice(0, 8)}` });
      expect((await create()).statusCode).toBe(201);
      const refused = await create();
      expect(refused.statusCode).toBe(400);
      expect(refused.json().code).toBe('MaximumOrganizationCreated');
      await setSettings({ organizationsPerUser: 2 });
      expect((await create()).statusCode).toBe(201);
      await setSettings({ organizationsPerUser: PORTAL_SETTINGS_DEFAULTS.organizationsPerUser });
    });

    it('refuses an invite older than the invite lifetime, and accepts it again once the lifetime allows', async () => {
      const owner = await t.buildUser();
      const created = await call('POST', '/api/organization', owner, { name: `Inv ${randomUUID().slice(0, 8)}` });
      const orgId = new URL(created.json().value, 'http://x').searchParams.get('org') ?? '';
      const email = `invitee-${randomUUID()}@example.test`;
      const sent = await call('POST', `/api/org/${orgId}/invites`, owner, { email });
      expect(sent.statusCode).toBe(201);
      const token = new URL(sent.json().link).searchParams.get('token') ?? '';
      // Sent three days ago.
      await sql`UPDATE organization_invites SET updated_at = now() - interval '3 days'
        WHERE organization_id = ${orgId}`.execute(t.db);
      const invitee = await t.buildUser();

      await setSettings({ inviteLifetimeDays: 2 });
      const expired = await call('POST', '/api/invites/accept', invitee, { token });
      expect(expired.statusCode).toBe(410);
      expect(expired.json().code).toBe('invite_expired');

      await setSettings({ inviteLifetimeDays: 4 });
      expect((await call('POST', '/api/invites/accept', invitee, { token })).statusCode).toBe(200);
      await setSettings({ inviteLifetimeDays: null });
    });

    it('lets the caster serve a network for the grace period after access ended', async () => {
      const owner = await t.buildUser();
      const network = await createNetwork(t.db);
      const { account } = await createAccount(t, owner);
      await sql`INSERT INTO access_grants (account_id, owner_user_id, network_id, valid_from, valid_until, source)
        VALUES (${account.id}, ${owner.userId}, ${network.id}, now() - interval '2 days', now() - interval '1 hour',
          'manual')`.execute(t.db);
      const ntrip = createNtripRepo(t.db);
      const epoch = await ntrip.authEpoch();
      expect(await ntrip.accessOf([account.id], new Date())).toEqual([]);

      await setSettings({ accessGraceHours: 2 });
      // The casters' cached decisions are dropped, as after a grant change.
      expect(await ntrip.authEpoch()).toBeGreaterThan(epoch);
      const [access] = await ntrip.accessOf([account.id], new Date());
      expect(access?.network_id).toBe(network.id);
      expect(access?.until.getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);

      await setSettings({ accessGraceHours: 0 });
      expect(await ntrip.accessOf([account.id], new Date())).toEqual([]);
    });
  });

  describe('documents', () => {
    const publish = (who: TestUser | undefined, kind: string, payload: object) =>
      call('POST', `/api/admin/documents/${kind}`, who, payload);
    const userInfo = async (who: TestUser) => (await call('GET', '/api/user', who)).json();

    it('answers 401, 403, 404 (also for a kind that names no document) and 400 with the field, publishing nothing', async () => {
      const doc = { title: 'Privacy', body: '# Privacy\n\nWe keep little.' };
      expect((await publish(undefined, 'privacy', doc)).statusCode).toBe(401);
      expect((await publish(user, 'privacy', doc)).statusCode).toBe(403);
      expect((await call('GET', '/api/admin/documents/privacy', user)).statusCode).toBe(403);
      expect((await call('GET', '/api/documents/privacy')).statusCode).toBe(404);
      const unknown = await publish(admin, 'cookies', doc);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ code: 'not_found', field: 'kind' });
      const empty = await publish(admin, 'privacy', { title: 'Privacy', body: '   ' });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().field).toBe('body');
      expect((await call('GET', '/api/admin/documents/privacy', admin)).json().items).toEqual([]);
      expect(await auditOf('document.publish')).toEqual([]);
    });

    it('publishes numbered versions and shows the latest publicly', async () => {
      const first = await publish(admin, 'dpa', { title: 'DPA', body: 'Version one' });
      expect(first.statusCode).toBe(201);
      expect(first.json()).toMatchObject({ kind: 'dpa', version: 1, title: 'DPA', body: 'Version one' });
      const second = (await publish(admin, 'dpa', { title: 'DPA', body: 'Version two' })).json();
      const [entry] = await auditOf('document.publish');
      expect(entry).toMatchObject({
        actorEmail: admin.email,
        targetType: 'legal_document',
        targetId: second.id,
        before: { kind: 'dpa', version: 1, body: 'Version one' },
        after: { kind: 'dpa', version: 2, body: 'Version two' },
      });
      const current = await call('GET', '/api/documents/dpa');
      expect(current.json()).toMatchObject({ version: 2, body: 'Version two' });
      const versions = (await call('GET', '/api/admin/documents/dpa', admin)).json().items;
      expect(versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
      expect(versions[0].publishedBy).toBe(admin.email);
      // The language the text is written in: English unless the publisher says otherwise (issue 32).
      expect(current.json().language).toBe('en');
      const dutch = await publish(admin, 'dpa', {
        title: 'Verwerkersovereenkomst',
        body: 'Versie drie',
        language: 'nl',
      });
      expect(dutch.json()).toMatchObject({ version: 3, language: 'nl' });
      expect((await call('GET', '/api/documents/dpa')).json()).toMatchObject({ version: 3, language: 'nl' });
      expect((await publish(admin, 'dpa', { title: 'DPA', body: 'x', language: 'de' })).statusCode).toBe(400);
    });

    it('makes every user accept a new terms version and records who accepted which version when', async () => {
      const other = await t.buildUser();
      expect((await userInfo(other)).termsAcceptedAt).not.toBeNull();

      const v1 = (await publish(admin, 'terms', { title: 'Terms', body: 'Be kind.' })).json();
      expect(await userInfo(other)).toMatchObject({ termsAcceptedAt: null, termsVersion: v1.version });
      // The server refuses what needs the terms, too: a checkout.
      const checkout = await call('POST', '/api/checkout/product?priceId=anything', other);
      expect(checkout.statusCode).toBe(403);
      expect(checkout.json().code).toBe('terms_not_accepted');

      const accepted = await call('POST', '/api/user/terms', other, { accepted: true });
      expect(accepted.statusCode).toBe(200);
      expect((await userInfo(other)).termsAcceptedAt).toBe(accepted.json().termsAcceptedAt);

      const v2 = (await publish(admin, 'terms', { title: 'Terms', body: 'Be kinder.' })).json();
      expect((await userInfo(other)).termsAcceptedAt).toBeNull();
      const again = await call('POST', '/api/user/terms', other, { accepted: true });
      expect((await userInfo(other)).termsVersion).toBe(v2.version);

      const rows = await t.db
        .selectFrom('terms_acceptances as a')
        .innerJoin('legal_documents as d', 'd.id', 'a.document_id')
        .select(['d.version', 'a.accepted_at'])
        .where('a.user_id', '=', other.userId)
        .orderBy('d.version')
        .execute();
      expect(rows.map((r) => [r.version, r.accepted_at.toISOString()])).toEqual([
        [v1.version, accepted.json().termsAcceptedAt],
        [v2.version, again.json().termsAcceptedAt],
      ]);
      const versions = (await call('GET', '/api/admin/documents/terms', admin)).json().items;
      expect(versions.find((v: { version: number }) => v.version === v2.version).acceptances).toBe(1);
      // Everyone else is asked, the admin who published included.
      expect((await userInfo(user)).termsAcceptedAt).toBeNull();
      expect((await userInfo(admin)).termsAcceptedAt).toBeNull();
      await call('POST', '/api/user/terms', admin, { accepted: true });
      await call('POST', '/api/user/terms', user, { accepted: true });
    });
  });

  describe('operator dashboard', () => {
    const dashboard = async () => {
      const res = await call('GET', '/api/admin/operator', admin);
      expect(res.statusCode).toBe(200);
      return res.json();
    };

    it('answers 401 anonymous and 403 to a user', async () => {
      expect((await call('GET', '/api/admin/operator')).statusCode).toBe(401);
      expect((await call('GET', '/api/admin/operator', user)).statusCode).toBe(403);
    });

    it('counts what customers bought and spent, per network', async () => {
      const network = await createNetwork(t.db, { price: 7 });
      await createStation(t.db, network.id, `OP${randomUUID().slice(0, 6)}`);
      const before = await dashboard();
      const { monthly, tokens } = await standardProducts(t, admin, [network.id]);

      const buyer = await t.buildUser();
      const sub = await startCheckout(t, buyer, 'subscription', monthly.priceId);
      expect((await payOnSandbox(t, sub.sandboxId, '4242424242424242')).statusCode).toBeLessThan(400);
      const pack = await startCheckout(t, buyer, 'product', tokens.priceId);
      expect((await payOnSandbox(t, pack.sandboxId, '4242424242424242')).statusCode).toBeLessThan(400);
      // Part of the subscription's payment goes back: revenue keeps the payment, refunds count what went back.
      const payment = await t.db
        .selectFrom('payments')
        .select('id')
        .where('user_id', '=', buyer.userId)
        .where('amount', '=', 4900)
        .executeTakeFirstOrThrow();
      const refund = await call('POST', `/api/admin/payments/${payment.id}/refund`, admin, { amount: 900 });
      expect(refund.statusCode).toBe(201);
      await grantTokens(t, admin, buyer, 5);
      const { account } = await createAccount(t, buyer);
      expect((await activate(t, buyer, account.id, network.id, 3)).statusCode).toBe(201);

      const after = await dashboard();
      const eur = (list: { currency: string; amount: number }[]) => list.find((m) => m.currency === 'EUR')?.amount ?? 0;
      expect(after.activeSubscriptions - before.activeSubscriptions).toBe(1);
      expect(eur(after.monthlyRecurringRevenue) - eur(before.monthlyRecurringRevenue)).toBe(4900);
      expect(eur(after.revenue) - eur(before.revenue)).toBe(4900 + 1000);
      expect(eur(after.refunds) - eur(before.refunds)).toBe(900);
      expect(eur(after.days.at(-1).refunds) - eur(before.days.at(-1)?.refunds ?? [])).toBe(900);
      // Granted tokens are not sold.
      expect(after.tokensSold - before.tokensSold).toBe(100);
      expect(after.tokensSpent - before.tokensSpent).toBe(21);
      expect(after.days).toHaveLength(after.windowDays);
      expect(after.days.at(-1).tokensSpent - (before.days.at(-1)?.tokensSpent ?? 0)).toBe(21);

      const mine = after.networks.find((n: { id: string }) => n.id === network.id);
      expect(mine).toMatchObject({
        activeSubscriptions: 1,
        monthlyRecurringRevenue: [{ currency: 'EUR', amount: 4900 }],
        tokensSpent: 21,
        stations: 1,
        stationsWithData: 1,
        roversConnected: 0,
      });
      // Without a caster beside this API the live count is not complete.
      expect(after.liveComplete).toBe(false);
    });
  });
});
