import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newSession, type Session } from './support/browser';
import { DEMO_ADMIN, DEMO_USER, logInThroughStorage } from './support/storage-login';

/** Zooms into clusters until single stations are on the map, then opens the first one's popup. */
async function openFirstStationPopup(s: Session): Promise<string> {
  const stations = s.page.getByTestId('map-station');
  const clusters = s.page.getByTestId('map-cluster');
  for (let i = 0; i < 12 && (await stations.count()) === 0; i++) {
    // A cluster can be replaced while the map still moves; the next round picks the new first one.
    await clusters
      .first()
      .click({ timeout: 5_000 })
      .catch(() => undefined);
    await s.page.waitForTimeout(800);
  }
  const station = stations.first();
  const label = (await station.getAttribute('aria-label')) ?? '';
  await station.click();
  await s.page.getByTestId('station-popup').waitFor();
  return label.split(' ')[0] ?? '';
}

describe('catalogue in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser.close());

  it('shows a logged-out visitor the stations on /marketplace as clusters, and a station popup on click', async () => {
    const s = await newSession(browser);
    await s.goto('/marketplace');
    await s.page.getByRole('heading', { level: 1, name: 'Network coverage' }).waitFor();
    await s.page.getByTestId('map-cluster').first().waitFor({ timeout: 30_000 });
    expect(await s.page.getByTestId('map-cluster').count()).toBeGreaterThan(0);
    await s.screenshot('marketplace-map');

    const mountpoint = await openFirstStationPopup(s);
    const popup = s.page.getByTestId('station-popup');
    await popup.getByRole('heading', { name: mountpoint }).waitFor();
    const text = await popup.textContent();
    expect(text).toMatch(/RTCM 3/);
    expect(text).toMatch(/Online|Offline/);
    expect(text).toMatch(/Last data/);
    await s.screenshot('marketplace-popup');
    expect(s.errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
    await s.context.close();
  });

  it('lets an admin create a network, a station and its feed, and then see the station on /map', async () => {
    const s = await newSession(browser);
    await logInThroughStorage(s.page, DEMO_ADMIN.email, DEMO_ADMIN.password);
    const suffix = randomUUID().slice(0, 6).toUpperCase();
    const networkName = `E2E Network ${suffix}`;
    const mountpoint = `E2E${suffix}`;

    await s.goto('/admin/networks');
    await s.page.getByTestId('network-create').click();
    const networkForm = s.page.getByTestId('network-form');
    await networkForm.getByTestId('network-name').fill(networkName);
    await networkForm.getByTestId('network-save').click();
    await s.page.getByRole('heading', { level: 1, name: networkName }).waitFor();

    await s.page.getByTestId('station-create').click();
    const stationForm = s.page.getByTestId('station-form');
    await stationForm.getByTestId('station-mountpoint').fill(mountpoint);
    await stationForm.getByTestId('station-identifier').fill('Utrecht Science Park');
    await stationForm.getByTestId('station-country').fill('NLD');
    await stationForm.getByTestId('station-latitude').fill('52.0856');
    await stationForm.getByTestId('station-longitude').fill('5.1776');
    await stationForm.getByTestId('station-save').click();
    await stationForm.waitFor({ state: 'hidden' });
    await s.page.getByRole('cell', { name: mountpoint, exact: true }).waitFor();
    await s.screenshot('admin-network-detail');

    // Its base station will push to our caster: a push feed, then switched off and on again.
    const networkId = new URL(s.page.url()).pathname.split('/').pop();
    await s.goto(`/admin/feed/${networkId}`);
    await s.page.getByTestId('feed-create').click();
    const feedForm = s.page.getByTestId('feed-form');
    await feedForm.getByTestId('feed-sourcePassword').fill('base-station-2026');
    await feedForm.getByTestId('feed-save').click();
    await feedForm.waitFor({ state: 'hidden' });
    const feedRow = s.page.getByRole('row', { name: new RegExp(mountpoint) });
    await feedRow.getByRole('button', { name: 'Disable' }).click();
    await feedRow.getByRole('button', { name: 'Enable' }).waitFor();
    await s.screenshot('admin-feeds');
    await feedRow.getByRole('button', { name: 'Enable' }).click();
    await feedRow.getByRole('button', { name: 'Disable' }).waitFor();

    await s.goto('/map');
    await s.page.getByTestId('map-cluster').first().waitFor({ timeout: 30_000 });
    await s.page.getByTestId('map-network-filter').selectOption({ label: networkName });
    const marker = s.page.getByRole('button', { name: new RegExp(`^${mountpoint} `) });
    await marker.waitFor({ timeout: 15_000 });
    await marker.click();
    await s.page.getByTestId('station-popup').getByRole('heading', { name: mountpoint }).waitFor();
    expect(await s.page.getByTestId('station-popup').textContent()).toContain(networkName);
    await s.screenshot('map-new-station');
    await s.context.close();
  });

  it('marks clusters that hide offline stations on /admin/map', async () => {
    const s = await newSession(browser);
    await logInThroughStorage(s.page, DEMO_ADMIN.email, DEMO_ADMIN.password);
    await s.goto('/admin/map');
    await s.page.getByTestId('map-cluster').first().waitFor({ timeout: 30_000 });
    const flagged = s.page.getByRole('button', { name: /stations, \d+ offline, zoom in/ });
    expect(await flagged.count()).toBeGreaterThan(0);
    await s.screenshot('admin-map-offline');
    await s.context.close();
  });

  it('shows a user the Restricted Access panel on /admin/networks', async () => {
    const s = await newSession(browser);
    await logInThroughStorage(s.page, DEMO_USER.email, DEMO_USER.password);
    await s.goto('/admin/networks');
    const panel = s.page.getByRole('region', { name: 'Restricted Access' });
    await panel.waitFor();
    await panel.getByText('You do not have the permissions to view this page.').waitFor();
    expect(await s.page.getByTestId('network-create').count()).toBe(0);
    await s.context.close();
  });
});
