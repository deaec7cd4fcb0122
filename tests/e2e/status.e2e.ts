import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/src/db/client.ts';
import { migrate } from '../../server/src/db/migrate.ts';
import { DESKTOP, launchBrowser } from './support/browser';
import { type PortalProcess, startPortal } from './support/portal-process';

/**
 * The public status page under a moved clock (issue 33): a portal of its own whose clock faketime sets to
 * 2026-03-15 12:00 UTC, on a store holding one station's recorded history, and /status in Chromium logged out
 * showing that history's incidents and availability, and a network no base has fed yet as not monitored.
 */

/** The portal's clock starts here and runs on. */
const NOW = '2026-03-15 12:00:00';
const MOUNTPOINT = 'STAT00NLD0';
/**
 * The script's timeline: online for the 30 days before NOW but for 7 h failing its integrity checks (the reference
 * position moved) on 10 March and 5 h offline over the night of 13 March. 708 of 720 hours: 98.33 %, which the
 * clock running on moves to 98.34 only after some three hours.
 */
const TIMELINE: Array<[string, boolean, 'ok' | 'failing', string]> = [
  ['2026-02-13T12:00:00Z', true, 'ok', ''],
  ['2026-03-10T05:00:00Z', true, 'failing', 'position_moved'],
  ['2026-03-10T12:00:00Z', true, 'ok', ''],
  ['2026-03-13T20:00:00Z', false, 'ok', ''],
  ['2026-03-14T01:00:00Z', true, 'ok', ''],
];

describe('the status page in Chromium under a moved clock', () => {
  let browser: Browser;
  let dir: string;
  let portal: PortalProcess | undefined;
  let baseURL = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'status-e2e-'));
    const dataDir = join(dir, 'db');
    // The history is written before the portal starts: a PGlite store has one process at a time.
    const handle = await openDatabase({ pgliteDataDir: dataDir });
    await migrate(handle.db);
    const network = await handle.db
      .insertInto('networks')
      .values({ slug: 'status-e2e', name: 'Status E2E RTK', translations: '{}' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const station = await handle.db
      .insertInto('stations')
      .values({
        network_id: network.id,
        mountpoint: MOUNTPOINT,
        identifier: 'Utrecht',
        country: 'NLD',
        latitude: 52.09,
        longitude: 5.12,
        status: 'online',
        integrity_reasons: '[]',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The row the trigger wrote at the real time of the insert gives way to the script's.
    await sql`DELETE FROM station_state_changes WHERE station_id = ${station.id}`.execute(handle.db);
    for (const [at, online, integrity, causes] of TIMELINE)
      await handle.db
        .insertInto('station_state_changes')
        .values({ station_id: station.id, at: new Date(at), online, integrity, causes })
        .execute();
    // A network whose only station no base has ever fed (as the demo's): not monitored yet, not down.
    const idle = await handle.db
      .insertInto('networks')
      .values({ slug: 'status-e2e-idle', name: 'Status E2E Idle', translations: '{}' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await handle.db
      .insertInto('stations')
      .values({
        network_id: idle.id,
        mountpoint: 'IDLE00NLD0',
        identifier: 'Zwolle',
        country: 'NLD',
        latitude: 52.5,
        longitude: 6.1,
        status: 'offline',
        integrity_reasons: '[]',
      })
      .execute();
    await handle.close();

    portal = await startPortal(
      {
        HOME: process.env.HOME ?? dir,
        TZ: 'UTC',
        // Only the wall clock moves: timers keep their real length.
        FAKETIME_DONT_FAKE_MONOTONIC: '1',
        PGLITE_DATA_DIR: dataDir,
      },
      ['faketime', '-f', `@${NOW}`],
    );
    baseURL = portal.baseURL;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the incidents and the availability of the timeline, logged out, with a link in the footer', async () => {
    const context = await browser.newContext({ viewport: DESKTOP, baseURL });
    await context.addCookies([{ name: 'cookie_consent', value: 'denied', url: baseURL }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/dashboard');
    await page.getByRole('link', { name: 'Status', exact: true }).click();
    await page.waitForURL('**/status');

    const network = page.locator('[data-testid=status-network][data-slug=status-e2e]');
    await network.waitFor();
    expect(await network.getByRole('heading', { name: 'Status E2E RTK' }).count()).toBe(1);
    expect(await network.getByTestId('status-availability').textContent()).toBe('98.33 % available over 90 days');
    expect(await network.getByTestId('status-state').first().getAttribute('data-state')).toBe('operational');
    // 10 March: 17 of 24 hours.
    expect(await network.locator('li[data-date="2026-03-10"]').first().getAttribute('aria-label')).toMatch(
      /: 70\.83 %$/,
    );
    // Before the station's history began: nothing recorded.
    expect(await network.locator('li[data-date="2026-02-01"]').first().getAttribute('aria-label')).toMatch(
      /: No data recorded$/,
    );

    const incidents = network.getByTestId('status-incident');
    expect(await incidents.count()).toBe(2);
    expect(await incidents.nth(0).getAttribute('data-cause')).toBe('offline');
    expect(await incidents.nth(0).textContent()).toContain('(5 h 0 min)');
    expect(await incidents.nth(1).getAttribute('data-cause')).toBe('integrity');
    expect(await incidents.nth(1).textContent()).toContain(
      `${MOUNTPOINT} failing its integrity checks (reference position moved)`,
    );
    expect(await incidents.nth(1).textContent()).toContain('(7 h 0 min)');

    await network.getByText('1 station', { exact: true }).click();
    const station = network.locator(`[data-testid=status-station][data-mountpoint=${MOUNTPOINT}]`);
    expect(await station.getByTestId('status-station-availability').textContent()).toBe('98.33 %');
    // The station's own strip, asked for when the list opened.
    expect(await station.locator('li[data-date="2026-03-10"]').getAttribute('aria-label')).toMatch(/: 70\.83 %$/);

    const idle = page.locator('[data-testid=status-network][data-slug=status-e2e-idle]');
    expect(await idle.getByTestId('status-state').first().textContent()).toBe('Not monitored yet');
    expect(await idle.getByTestId('status-availability').textContent()).toBe('No data recorded');
    expect(await idle.getByTestId('status-incident').count()).toBe(0);

    // The feeds say the same.
    const feed = (await (await page.request.get('/api/status/incidents.json')).json()) as {
      items: Array<{ cause: string; start: string; end: string | null }>;
    };
    expect(feed.items.map((i) => [i.cause, i.start, i.end])).toEqual([
      ['offline', '2026-03-13T20:00:00.000Z', '2026-03-14T01:00:00.000Z'],
      ['integrity', '2026-03-10T05:00:00.000Z', '2026-03-10T12:00:00.000Z'],
    ]);
    const atomHref = await page.getByRole('link', { name: 'Atom feed of incidents' }).getAttribute('href');
    const atom = await page.request.get(atomHref ?? '');
    expect(atom.headers()['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect((await atom.text()).match(/<entry>/g)).toHaveLength(2);
    expect(errors).toEqual([]);
    await context.close();
  });
});
