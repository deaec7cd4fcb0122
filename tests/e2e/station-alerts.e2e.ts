import { randomBytes, randomUUID } from 'node:crypto';
import { nearMountpoint } from '@portal/contract';
import { sql } from 'kysely';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../server/src/db/client.ts';
import { createTestDatabase } from '../../server/test/support/database.ts';
import { signUp } from './support/auth';
import { launchBrowser, newSession, type Session } from './support/browser';
import { until } from './support/ntrip';
import { type PortalProcess, startPortal } from './support/portal-process';

/**
 * Outage alerts in the running portal (issue 33): a portal of its own on PostgreSQL, so the test can play the caster
 * beside it, writing the station's status as a caster's report does. The customer who signed up in Chromium and
 * whose rover worked near the station gets one "down" and one "back" mail in the outbox, a customer whose rovers
 * worked near another station none; after the first turns station alerts off on /settings in Chromium, a later
 * incident mails only the customer who kept them on.
 */

const SLUG = 'alerts-e2e';
const NEAR = 'ALRT00NLD0';
const FAR = 'ALRT01NLD0';

describe('outage alerts in Chromium', () => {
  let db: DatabaseHandle & { url?: string };
  let browser: Browser;
  let portal: PortalProcess | undefined;
  let baseURL = '';
  let session: Session;
  let customer = '';
  const others: Record<'elsewhere' | 'alsoNear', string> = { elsewhere: '', alsoNear: '' };

  /** The caster's report on the station (catalogue repo's reportStationStatus): the trigger records the change. */
  const report = (mountpoint: string, online: boolean) =>
    sql`UPDATE stations SET status = ${online ? 'online' : 'offline'}, status_reported_at = now()
        WHERE mountpoint = ${mountpoint}`.execute(db.db);

  /** A rover session of the user's own NTRIP account that ended an hour ago, as the caster logs it. */
  async function roverSession(userId: string, mountpoint: string, gga: [number, number], servedStation?: string) {
    const account = await db.db
      .insertInto('ntrip_accounts')
      .values({ owner_user_id: userId, username: `rover-${randomUUID().slice(0, 8)}`, password_hash: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.db
      .insertInto('ntrip_sessions')
      .values({
        account_id: account.id,
        mountpoint,
        remote_address: '192.0.2.7',
        started_at: new Date(Date.now() - 7_200_000),
        ended_at: new Date(Date.now() - 3_600_000),
        served_station: servedStation ?? null,
        last_gga_lat: gga[0],
        last_gga_lon: gga[1],
      })
      .execute();
  }

  const outbox = async (userId: string) =>
    (
      await sql<{ kind: string }>`
        SELECT kind FROM mail_outbox WHERE user_id = ${userId} AND kind IN ('station_down', 'station_up')
        ORDER BY created_at, id`.execute(db.db)
    ).rows.map((m) => m.kind);

  const waitForMails = (userId: string, count: number) =>
    until(
      async () => (await outbox(userId)).length >= count,
      () => `${count} outage mails for ${userId}:\n${portal?.output()}`,
    );

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    const network = await db.db
      .insertInto('networks')
      .values({ slug: SLUG, name: 'Alerts E2E RTK', translations: '{}' })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [mountpoint, latitude, longitude] of [
      [NEAR, 52.0, 5.0],
      [FAR, 53.2, 6.5],
    ] as const)
      await db.db
        .insertInto('stations')
        .values({
          network_id: network.id,
          mountpoint,
          identifier: mountpoint,
          country: 'NLD',
          latitude,
          longitude,
          // Online from the start: an incident is a change from good to out of order.
          status: 'online',
          integrity_reasons: '[]',
        })
        .execute();
    for (const name of ['elsewhere', 'alsoNear'] as const) {
      const user = await db.db
        .insertInto('users')
        .values({ firebase_uid: `e2e-${randomUUID()}`, email: `${name}-${randomUUID().slice(0, 8)}@example.test` })
        .returning('id')
        .executeTakeFirstOrThrow();
      others[name] = user.id;
    }
    // Rovers that worked near the other station only, and another customer near this one.
    await roverSession(others.elsewhere, nearMountpoint(SLUG), [53.21, 6.49], FAR);
    await roverSession(others.alsoNear, NEAR, [52.01, 5.01]);

    portal = await startPortal({
      DATABASE_URL: db.url as string,
      FEED_SECRET_KEY: randomBytes(32).toString('base64'),
      // A short incident is announced within seconds.
      STATION_ALERT_GRACE_SECONDS: '2',
      STATION_ALERT_CHECK_SECONDS: '1',
    });
    baseURL = portal.baseURL;
    browser = await launchBrowser();
    session = await newSession(browser, undefined, { baseURL });
    const account = await signUp(session);
    const user = await db.db
      .selectFrom('users')
      .select('id')
      .where(sql`lower(email)`, '=', account.email.toLowerCase())
      .executeTakeFirstOrThrow();
    customer = user.id;
    // A nearest-station rover whose last GGA was some 6 km from the station.
    await roverSession(customer, nearMountpoint(SLUG), [52.05, 5.05]);
  });

  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
    await db?.close();
  });

  it('mails the customer served near the station one "down" and one "back", and the one elsewhere nothing', async () => {
    await report(NEAR, false);
    await waitForMails(customer, 1);
    await report(NEAR, true);
    await waitForMails(customer, 2);
    await waitForMails(others.alsoNear, 2);
    // Further checks add nothing: one pair per incident.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(await outbox(customer)).toEqual(['station_down', 'station_up']);
    expect(await outbox(others.alsoNear)).toEqual(['station_down', 'station_up']);
    expect(await outbox(others.elsewhere)).toEqual([]);
  });

  it('sends nothing for a later incident once the customer turned station alerts off on /settings', async () => {
    const page = session.page;
    await session.goto('/settings');
    const toggle = page.getByRole('switch', {
      name: 'A station my rovers used in the last 30 days is down or failing, and back',
    });
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.click();
    await page.getByRole('button', { name: 'Save notifications' }).click();
    await page.getByText('Your notification settings are saved.').waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('false');

    await report(NEAR, false);
    await waitForMails(others.alsoNear, 3);
    await report(NEAR, true);
    await waitForMails(others.alsoNear, 4);
    expect(await outbox(others.alsoNear)).toEqual(['station_down', 'station_up', 'station_down', 'station_up']);
    expect(await outbox(customer)).toEqual(['station_down', 'station_up']);
    expect(await outbox(others.elsewhere)).toEqual([]);
    expect(session.errors).toEqual([]);
  });
});
