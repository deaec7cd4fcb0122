import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOptionsOf } from '../src/api-options.ts';
import { DEV_FEED_SECRET_KEY, loadConfig } from '../src/config.ts';
import { createMailModule } from '../src/modules/mail/index.ts';
import { smtpTransport } from '../src/modules/mail/mail.transport.ts';
import { payOnSandbox, standardProducts, startCheckout } from './billing/support.ts';
import { createTestDatabase, testDatabaseKind } from './support/database.ts';
import { createNetwork, createOrganization } from './support/factories.ts';
import { startSmtpServer } from './support/smtp.ts';
import { buildTestApp, type TestContext, type TestUser } from './support/test-app.ts';

const PUBLIC_URL = 'https://portal.example.test';
const quiet = { info() {}, warn() {}, error() {} };

describe(`mail on ${testDatabaseKind()}`, () => {
  let t: TestContext;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await buildTestApp({ publicUrl: PUBLIC_URL, mail: { smtpUrl: smtp.url, pollMs: 100, backoffMs: 200 } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const invite = (owner: TestUser, orgId: string, email: string) =>
    t.app.inject({ method: 'POST', url: `/api/org/${orgId}/invites`, headers: owner.headers, payload: { email } });
  /** The recipient's outbox rows once the worker has marked them sent (it does so just after the server's answer). */
  async function outboxRow(recipient: string) {
    for (let i = 0; ; i++) {
      const rows = await t.db.selectFrom('mail_outbox').selectAll().where('recipient', '=', recipient).execute();
      if (rows.every((r) => r.status === 'sent') || i > 100) return rows;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('sends the invitation with its secret link, in the brand, with the organisation name escaped in HTML', async () => {
    const owner = await t.buildUser();
    const orgId = await createOrganization(t, owner, `Survey <b>&amp; "Co"`);
    const email = `invitee-${randomUUID()}@example.test`;
    const res = await invite(owner, orgId, email);
    expect(res.statusCode).toBe(201);
    const link = res.json().link as string;
    expect(res.json().mailed).toBe(true);

    const [mail, ...more] = await smtp.to(email);
    expect(more).toEqual([]);
    expect(mail?.headers.get('from')).toBe('Meridian RTK <no-reply@portal.example.test>');
    expect(mail?.subject).toBe('Invitation to Survey <b>&amp; "Co" on Meridian RTK');
    expect(mail?.text).toContain(
      `${owner.email} invites you to the organisation Survey <b>&amp; "Co" on Meridian RTK.`,
    );
    expect(mail?.text).toContain(`View invitation: ${link}`);
    expect(mail?.html).toContain('Survey &lt;b&gt;&amp;amp; &quot;Co&quot;');
    expect(mail?.html).not.toContain('<b>&amp;');
    expect(mail?.html).toContain(`href="${link}"`);
    expect(mail?.html).toContain('#4afc2d');
    // Invitations cannot be turned off, so they carry no unsubscribe link.
    expect(mail?.headers.has('list-unsubscribe')).toBe(false);
    const [row] = await outboxRow(email);
    expect(row).toMatchObject({ kind: 'invitation', status: 'sent', transport: 'smtp', attempts: 1 });
    expect(row?.message_id).toBe(mail?.headers.get('message-id'));
  });

  it('answers the invite even when the mail server refuses, and retries with backoff until it is sent', async () => {
    const owner = await t.buildUser();
    const orgId = await createOrganization(t, owner);
    const email = `retry-${randomUUID()}@example.test`;
    smtp.refuse(2);
    const res = await invite(owner, orgId, email);
    expect(res.statusCode).toBe(201);
    const [mail] = await smtp.to(email);
    expect(mail?.text).toContain(res.json().link);
    const [row] = await outboxRow(email);
    expect(row).toMatchObject({ status: 'sent', attempts: 3 });
    // The two failed tries waited 200 ms, then 400 ms.
    expect((row?.sent_at?.getTime() ?? 0) - (row?.created_at.getTime() ?? 0)).toBeGreaterThanOrEqual(600);
    expect(await smtp.to(email, 2, 500)).toHaveLength(1);
  });

  describe('notification preferences', () => {
    it('refuses callers without a sign-in', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/user/notifications' })).statusCode).toBe(401);
      const put = await t.app.inject({ method: 'PUT', url: '/api/user/notifications', payload: { lowBalance: false } });
      expect(put.statusCode).toBe(401);
    });

    it('refuses bad values and changes nothing', async () => {
      const user = await t.buildUser();
      for (const payload of [
        { lowBalanceThreshold: -1 },
        { lowBalanceThreshold: 1.5 },
        { locale: 'de' },
        { receipts: false },
        { rinexReady: 'no' },
      ]) {
        const res = await t.app.inject({
          method: 'PUT',
          url: '/api/user/notifications',
          headers: user.headers,
          payload,
        });
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().code).toBeTruthy();
      }
      const res = await t.app.inject({ method: 'GET', url: '/api/user/notifications', headers: user.headers });
      expect(res.json()).toEqual({
        locale: 'en',
        accessEnding: true,
        lowBalance: true,
        lowBalanceThreshold: 10,
        renewalFailed: true,
        rinexReady: true,
        membership: true,
        stationAlerts: true,
      });
    });

    it('saves what is sent and keeps the rest', async () => {
      const user = await t.buildUser();
      const put = await t.app.inject({
        method: 'PUT',
        url: '/api/user/notifications',
        headers: user.headers,
        payload: { lowBalanceThreshold: 250, rinexReady: false, locale: 'nl' },
      });
      expect(put.statusCode).toBe(200);
      const again = await t.app.inject({
        method: 'PUT',
        url: '/api/user/notifications',
        headers: user.headers,
        payload: { membership: false },
      });
      expect(again.json()).toEqual({
        locale: 'nl',
        accessEnding: true,
        lowBalance: true,
        lowBalanceThreshold: 250,
        renewalFailed: true,
        rinexReady: false,
        membership: false,
        stationAlerts: true,
      });
      const other = await t.buildUser();
      const theirs = await t.app.inject({ method: 'GET', url: '/api/user/notifications', headers: other.headers });
      expect(theirs.json().membership).toBe(true);
    });
  });

  it('mails a role change with a one-click unsubscribe that only a POST carries out', async () => {
    const owner = await t.buildUser();
    const orgId = await createOrganization(t, owner, 'Dune Surveyors');
    const member = await t.buildUser({ emailVerified: true });
    await invite(owner, orgId, member.email);
    const accepted = await t.app.inject({
      method: 'PUT',
      url: '/api/invites',
      headers: member.headers,
      payload: { action: 'accept', organization: orgId },
    });
    expect(accepted.statusCode).toBe(200);
    const setRole = (role: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/org/${orgId}/members`,
        headers: owner.headers,
        payload: { forMember: member.userId, role },
      });
    expect((await setRole('admin')).statusCode).toBe(200);

    const [, mail] = await smtp.to(member.email, 2);
    expect(mail?.subject).toBe('Your role in Dune Surveyors changed');
    expect(mail?.text).toContain('Your role in the organisation Dune Surveyors is now admin.');
    const unsubscribe = /^<(.+)>$/.exec(mail?.headers.get('list-unsubscribe') ?? '')?.[1] ?? '';
    expect(unsubscribe).toMatch(`${PUBLIC_URL}/api/mail/unsubscribe?token=`);
    expect(mail?.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(mail?.text).toContain(unsubscribe);
    const path = unsubscribe.slice(PUBLIC_URL.length);

    // Mail scanners open links: the GET only asks.
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Stop the mails about organisation membership changes?');
    expect(page.body).toContain('<form method="post"');
    const prefs = () => t.app.inject({ method: 'GET', url: '/api/user/notifications', headers: member.headers });
    expect((await prefs()).json().membership).toBe(true);

    const post = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(post.statusCode).toBe(200);
    expect(post.body).toContain('You will no longer receive mails about organisation membership changes.');
    expect((await prefs()).json()).toMatchObject({ membership: false, rinexReady: true });

    expect((await setRole('member')).statusCode).toBe(200);
    const rows = await t.db
      .selectFrom('mail_outbox')
      .select('kind')
      .where('user_id', '=', member.userId)
      .where('kind', '=', 'membership')
      .execute();
    expect(rows).toHaveLength(1);

    const forged = path.replace(/token=.{6}/, 'token=AAAAAA');
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.app.inject({ method, url: forged });
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('This unsubscribe link is not valid.');
    }
  });

  it('tells a removed member in their language, and the others when the organisation is deleted; not who left', async () => {
    const owner = await t.buildUser();
    const orgId = await createOrganization(t, owner, 'Kwelder Crew');
    const join = async (locale: 'en' | 'nl') => {
      const user = await t.buildUser({ emailVerified: true });
      await t.app.inject({ method: 'PUT', url: '/api/user/notifications', headers: user.headers, payload: { locale } });
      expect((await invite(owner, orgId, user.email)).statusCode).toBe(201);
      const accepted = await t.app.inject({
        method: 'PUT',
        url: '/api/invites',
        headers: user.headers,
        payload: { action: 'accept', organization: orgId },
      });
      expect(accepted.statusCode).toBe(200);
      return user;
    };
    const removed = await join('nl');
    const stays = await join('en');
    const leaves = await join('en');

    const removal = await t.app.inject({
      method: 'DELETE',
      url: `/api/org/${orgId}/members`,
      headers: owner.headers,
      payload: { forMember: removed.userId },
    });
    expect(removal.statusCode).toBe(200);
    const [, gone] = await smtp.to(removed.email, 2);
    expect(gone?.subject).toBe('Je bent geen lid meer van Kwelder Crew');
    expect(gone?.text).toContain(
      'Je bent geen lid meer van de organisatie Kwelder Crew op Meridian RTK. Je NTRIP-accounts van de organisatie hebben geen toegang meer.',
    );
    expect(gone?.headers.get('list-unsubscribe')).toMatch(/^<https:\/\/portal\.example\.test\/api\/mail\/unsubscribe/);

    const left = await t.app.inject({ method: 'POST', url: `/api/org/${orgId}/leave`, headers: leaves.headers });
    expect(left.statusCode).toBe(200);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/org/${orgId}`,
      headers: owner.headers,
      payload: { name: 'Kwelder Crew' },
    });
    expect(deleted.statusCode).toBe(200);
    const [, told] = await smtp.to(stays.email, 2);
    expect(told?.subject).toBe('Kwelder Crew was deleted');
    expect(told?.text).toContain(
      "The organisation Kwelder Crew on Meridian RTK was deleted by an owner or admin, so you are no longer a member. The organisation's NTRIP accounts no longer give you access and its subscriptions have ended.",
    );

    // Only their invitations: who left or was removed before, and the owner who deleted it, are told nothing more.
    expect(await smtp.to(leaves.email, 2, 300)).toHaveLength(1);
    expect(await smtp.to(removed.email, 3, 300)).toHaveLength(2);
    expect(await smtp.to(owner.email, 1, 300)).toEqual([]);
  });

  it('sends a receipt for a payment, and one low-balance mail when the balance falls below the threshold', async () => {
    const admin = await t.buildAdmin();
    const { tokens } = await standardProducts(t, admin, [(await createNetwork(t.db)).id]);
    const user = await t.buildUser();
    const { sandboxId } = await startCheckout(t, user, 'product', tokens.priceId);
    expect((await payOnSandbox(t, sandboxId, '4242424242424242')).statusCode).toBeLessThan(400);
    const [receipt] = await smtp.to(user.email);
    expect(receipt?.subject).toBe('Payment receipt: 100 Tokens');
    expect(receipt?.text).toMatch(/We received your payment of €10\.00 for 100 Tokens on .* \(UTC\)\./);
    // The portal's own invoice number for the payment, not the payment provider's.
    expect(receipt?.text).toMatch(/Invoice number: INV-\d{4}-\d{6}\./);
    expect(receipt?.headers.has('list-unsubscribe')).toBe(false);

    const prefs = await t.app.inject({
      method: 'PUT',
      url: '/api/user/notifications',
      headers: user.headers,
      payload: { lowBalanceThreshold: 50 },
    });
    expect(prefs.statusCode).toBe(200);
    const takeBack = (tokenAmount: number) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/admin/tokens',
        headers: admin.headers,
        payload: { userId: user.userId, tokenAmount, reason: 'test of the low-balance mail' },
      });
    expect((await takeBack(-40)).statusCode).toBe(200);
    expect((await takeBack(-20)).statusCode).toBe(200);
    expect((await takeBack(-5)).statusCode).toBe(200);
    const [, low, ...more] = await smtp.to(user.email, 2);
    expect(low?.subject).toBe('Your token balance is 40');
    expect(low?.text).toContain('Your token balance fell to 40, below the threshold of 50 you set.');
    expect(low?.headers.get('list-unsubscribe')).toMatch(
      /^<https:\/\/portal\.example\.test\/api\/mail\/unsubscribe\?token=/,
    );
    expect(more).toEqual([]);
    expect(await smtp.to(user.email, 3, 500)).toHaveLength(2);
  });

  it('mails access ending soon (3 days, or the last quarter of a shorter period) and access that ended, once each, to those who want it', async () => {
    const admin = await t.buildAdmin();
    const networkId = (await createNetwork(t.db, { name: 'Wadden RTK' })).id;
    const { monthly } = await standardProducts(t, admin, [networkId]);
    const product = await t.db
      .selectFrom('products')
      .select('id')
      .where('price_id', '=', monthly.priceId)
      .executeTakeFirstOrThrow();
    const now = Date.now();
    const subscription = (userId: string, status: 'active' | 'cancelling', endsInMs: number) =>
      t.db
        .insertInto('subscriptions')
        .values({
          user_id: userId,
          product_id: product.id,
          provider: status === 'active' ? 'manual' : 'stripe',
          status,
          current_period_start: new Date(now - 20 * 86_400_000),
          current_period_end: new Date(now + endsInMs),
        })
        .execute();
    const user = await t.buildUser();
    await subscription(user.userId, 'active', 2 * 86_400_000);
    await subscription(user.userId, 'cancelling', -3_600_000);
    // Renews by itself: nothing ends.
    await t.db
      .insertInto('subscriptions')
      .values({
        user_id: user.userId,
        product_id: product.id,
        provider: 'stripe',
        status: 'active',
        current_period_start: new Date(now),
        current_period_end: new Date(now + 86_400_000),
      })
      .execute();
    // Two days bought, 12 hours left: in its last quarter, so it ends soon.
    await t.db
      .insertInto('access_grants')
      .values({
        owner_user_id: user.userId,
        network_id: networkId,
        valid_from: new Date(now - 36 * 3_600_000),
        valid_until: new Date(now + 12 * 3_600_000),
        source: 'tokens',
      })
      .execute();
    // One day bought 7 minutes ago (issue 32: it was told "ends soon" then): not yet in its last quarter.
    await t.db
      .insertInto('access_grants')
      .values({
        owner_user_id: user.userId,
        network_id: (await createNetwork(t.db, { name: 'Eems RTK' })).id,
        valid_from: new Date(now - 7 * 60_000),
        valid_until: new Date(now + 86_400_000 - 7 * 60_000),
        source: 'tokens',
      })
      .execute();
    const quietUser = await t.buildUser();
    await t.app.inject({
      method: 'PUT',
      url: '/api/user/notifications',
      headers: quietUser.headers,
      payload: { accessEnding: false },
    });
    await subscription(quietUser.userId, 'active', 86_400_000);

    // Another process's check (the app's own runs every 10 minutes), twice: the keys keep it to one mail each.
    const checker = createMailModule(
      t.db,
      { secretKey: DEV_FEED_SECRET_KEY, publicUrl: PUBLIC_URL, log: quiet },
      { send: false, accessCheckMs: false },
    );
    await checker.notices.access.run();
    await checker.notices.access.run();
    await checker.close();

    const mails = await smtp.to(user.email, 3);
    expect(mails.map((m) => m.subject).sort()).toEqual([
      'Your access through RTK Monthly ends soon',
      'Your access through RTK Monthly has ended',
      'Your access to Wadden RTK ends soon',
    ]);
    const ending = mails.find((m) => m.subject === 'Your access to Wadden RTK ends soon');
    expect(ending?.text).toContain('activated with tokens, ends on');
    expect(ending?.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(await smtp.to(user.email, 4, 500)).toHaveLength(3);
    expect(await smtp.to(quietUser.email, 1, 300)).toEqual([]);
  });

  it('shows the outbox to admins only', async () => {
    const user = await t.buildUser();
    const admin = await t.buildAdmin();
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/outbox' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/outbox', headers: user.headers })).statusCode).toBe(
      403,
    );
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/outbox?offset=-1', headers: admin.headers })).statusCode,
    ).toBe(400);
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/outbox', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ limit: 50, offset: 0, smtp: true });
    expect(body.total).toBeGreaterThanOrEqual(3);
    expect(body.items[0]).toMatchObject({ status: 'sent', transport: 'smtp' });
    expect(body.items.map((m: { kind: string }) => m.kind)).toContain('invitation');
  });
});

describe(`the mail job on ${testDatabaseKind()}`, () => {
  // Its own database: the app above runs a worker that would send these mails itself.
  let handle: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(() => handle.close());

  it('sends a mail exactly once across a restart between queueing and sending, and after a worker died holding it', async () => {
    const smtp = await startSmtpServer();
    const deps = { secretKey: DEV_FEED_SECRET_KEY, publicUrl: PUBLIC_URL, log: quiet };
    try {
      // The first process queues two mails (one twice: the same event) and stops before its worker sends.
      const first = createMailModule(handle.db, deps, { transport: smtpTransport(smtp.url), send: false });
      const content = { kind: 'invitation' as const, organizationName: 'Polder', inviter: 'a@example.test' };
      const queue = (key: string, recipient: string) =>
        handle.db
          .transaction()
          .execute((trx) =>
            first.mailer.queue(trx, { key, recipient, content: { ...content, link: `${PUBLIC_URL}/${key}` } }),
          );
      expect(await queue('event-1', 'one@example.test')).toBe(true);
      expect(await queue('event-1', 'one@example.test')).toBe(false);
      expect(await queue('event-2', 'two@example.test')).toBe(true);
      // It also claimed event-2 and died before sending it: the lease (2 minutes) holds it.
      const claimed = await first.repo.claim(new Date(), new Date(Date.now() + 120_000));
      expect(claimed?.idempotency_key).toBe('event-1');
      await first.worker.close();

      // The restarted process, two workers of it (two API processes) at once.
      let now = Date.now();
      const restarted = () =>
        createMailModule(handle.db, deps, {
          transport: smtpTransport(smtp.url),
          send: false,
          clock: () => new Date(now),
        });
      const a = restarted();
      const b = restarted();
      a.worker.kick();
      b.worker.kick();
      await Promise.all([a.worker.idle(), b.worker.idle()]);
      expect(smtp.messages.map((m) => m.to)).toEqual([['two@example.test']]);

      // Past the lease the held mail is due again, and is sent once.
      now += 121_000;
      a.worker.kick();
      b.worker.kick();
      await Promise.all([a.worker.idle(), b.worker.idle()]);
      a.worker.kick();
      await a.worker.idle();
      expect(smtp.messages.map((m) => m.to).sort()).toEqual([['one@example.test'], ['two@example.test']]);
      const rows = await handle.db
        .selectFrom('mail_outbox')
        .select(['idempotency_key', 'status', 'attempts'])
        .execute();
      expect(rows.sort((x, y) => x.idempotency_key.localeCompare(y.idempotency_key))).toEqual([
        { idempotency_key: 'event-1', status: 'sent', attempts: 2 },
        { idempotency_key: 'event-2', status: 'sent', attempts: 1 },
      ]);
      await Promise.all([a.worker.close(), b.worker.close()]);
    } finally {
      await smtp.close();
    }
  });

  it('keeps mail in the outbox and writes a log line when there is no SMTP server', async () => {
    const lines: string[] = [];
    const log = { ...quiet, info: (_o: object, msg: string) => lines.push(msg) };
    const mail = createMailModule(
      handle.db,
      { secretKey: DEV_FEED_SECRET_KEY, publicUrl: PUBLIC_URL, log },
      { send: false },
    );
    await handle.db.transaction().execute((trx) =>
      mail.mailer.queue(trx, {
        key: 'event-3',
        recipient: 'x@example.test',
        content: { kind: 'invitation', organizationName: 'Polder', inviter: 'a@example.test', link: PUBLIC_URL },
      }),
    );
    mail.worker.kick();
    await mail.worker.idle();
    const row = await handle.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('idempotency_key', '=', 'event-3')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'sent', transport: 'log', subject: 'Invitation to Polder on Meridian RTK' });
    expect(lines).toContain('mail kept in the outbox (no SMTP_URL): read it at /admin/outbox');
    await mail.worker.close();
  });
});

describe('mail configuration', () => {
  it('takes SMTP_URL, MAIL_FROM and the brand into the API, and keeps mail in the outbox without SMTP_URL', () => {
    const config = loadConfig({
      SMTP_URL: 'smtps://portal:secret@mail.example.test:465',
      MAIL_FROM: 'TerraView <noreply@terraview.example>',
      VITE_BRAND: 'terraview',
      FEED_SECRET_KEY: 'q6Xq3bGkq8m4mJ0wS0bXr0a9hQ5f8cQeWkqg2l7Y1jA=',
      STATION_ALERT_GRACE_SECONDS: '120',
      STATION_ALERT_CHECK_SECONDS: '15',
    });
    expect(apiOptionsOf(config).mail).toEqual({
      smtpUrl: 'smtps://portal:secret@mail.example.test:465',
      from: 'TerraView <noreply@terraview.example>',
      brand: 'terraview',
      stationAlertGraceMs: 120_000,
      stationAlertCheckMs: 15_000,
    });
    expect(apiOptionsOf(loadConfig({})).mail?.stationAlertGraceMs).toBe(300_000);
    expect(apiOptionsOf(loadConfig({})).mail?.stationAlertCheckMs).toBe(60_000);
    expect(apiOptionsOf(loadConfig({ SMTP_URL: '' })).mail?.smtpUrl).toBeUndefined();
  });

  it('refuses an SMTP_URL that is not an SMTP address, and an unknown brand, naming them', () => {
    expect(() => loadConfig({ SMTP_URL: 'mail.example.test:25' })).toThrow(/SMTP_URL: an SMTP server address/);
    expect(() => loadConfig({ VITE_BRAND: 'nope' })).toThrow(/VITE_BRAND: Unknown brand "nope".*default, terraview/);
  });
});
