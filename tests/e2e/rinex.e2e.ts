import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { retimeCapture } from '@portal/gnss';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { until } from '../../caster/test/support/wait.ts';
import { capturePosition, readObservationFile, unzip } from '../../server/test/support/rinex';
import { signUp } from './support/auth';
import { DESKTOP, launchBrowser, MOBILE, newSession, type Session } from './support/browser';
import { payInPortal } from './support/checkout';

/** A real base-station capture (NovAtel OEM729, Hiroshima; 60 epochs at 1 Hz, with its 1005 position). */
const CAPTURE = new URL('../../gnss/test/fixtures/oem729_hiroshima_20221213_msm7_alleph.rtcm3', import.meta.url)
  .pathname;
/** Source password of every seeded push feed (server/src/modules/catalogue/catalogue.seed.ts). */
const DEMO_SOURCE_PASSWORD = 'demo-source-2026';
const TOKENS_100 = 'price_sbx_demo-tokens-100';
const H = 3_600_000;

const sources: net.Socket[] = [];

/** The capture, its epochs moved to now, pushed as the station's NTRIP 1 source after the caster's ICY 200 OK. */
async function pushCapture(capture: Buffer, mountpoint: string): Promise<void> {
  const socket = net.connect({ port: inject('casterPort'), host: '127.0.0.1' });
  socket.on('error', () => {});
  socket.write(`SOURCE ${DEMO_SOURCE_PASSWORD} /${mountpoint}\r\nSource-Agent: NTRIP e2e-base\r\n\r\n`);
  const [answer] = (await once(socket, 'data')) as [Buffer];
  expect(answer.toString('latin1')).toMatch(/^ICY 200 OK\r\n/);
  for (let offset = 0; offset < capture.length; offset += 4096) {
    socket.write(capture.subarray(offset, offset + 4096));
    await new Promise((r) => setTimeout(r, 20));
  }
  sources.push(socket);
}

/** 100 tokens, paid with 4242… in the portal's checkout page the buy button opens in a new tab,
 * which is closed again. */
async function buyTokens(session: Session): Promise<void> {
  await session.goto('/credits');
  const checkout = await payInPortal(session.page, TOKENS_100);
  await checkout.getByTestId('checkout-success').waitFor();
  await checkout.close();
}

/** Screenshots of the page at 1440 and 375 px wide, scrolled to the element with `id` when given. */
async function shoot(session: Session, name: string, id?: string): Promise<void> {
  const show = async () => {
    if (id) await session.page.evaluate((target) => document.getElementById(target)?.scrollIntoView(), id);
    await session.page.waitForTimeout(300);
  };
  await show();
  await session.screenshot(`${name}-1440`);
  await session.page.setViewportSize(MOBILE);
  await show();
  await session.screenshot(`${name}-375`);
  await session.page.setViewportSize(DESKTOP);
}

describe('RINEX in Chromium', () => {
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    dir = mkdtempSync(join(tmpdir(), 'rinex-e2e-'));
  });
  afterAll(async () => {
    for (const socket of sources) socket.destroy();
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a new user picks a station on the map, buys the hour its base station streamed, and downloads the RINEX', {
    timeout: 300_000,
  }, async () => {
    const session = await newSession(browser);
    const { page } = session;
    await signUp(session);
    await buyTokens(session);

    await session.goto('/rinex');
    await page.getByRole('heading', { name: 'RINEX data', level: 1 }).waitFor();
    await shoot(session, 'rinex-empty');

    // The station, from the coverage map's popup.
    await session.goto('/map');
    // MapLibre draws slowly on a loaded machine without a GPU: the markers come when the map has loaded.
    await page.getByTestId('map-network-filter').selectOption({ label: 'Dutch RTK Network' }, { timeout: 60_000 });
    const marker = page.getByTestId('map-station').first();
    await marker.waitFor({ timeout: 90_000 });
    const mountpoint = ((await marker.getAttribute('aria-label')) ?? '').split(' ')[0] ?? '';
    expect(mountpoint).toMatch(/^[A-Za-z0-9_-]+$/);
    await marker.click();
    const popup = page.getByTestId('station-popup');
    await popup.getByRole('heading', { name: mountpoint }).waitFor();
    await popup.getByRole('link', { name: 'RINEX' }).click();
    await page.waitForURL(new RegExp(`/rinex\\?station=${mountpoint}$`));
    await page.getByTestId('rinex-station').getByText(mountpoint).waitFor();

    // The station's base streams: a real capture whose epochs are now, inside this UTC hour.
    if (Date.now() % H > H - 90_000) await new Promise((r) => setTimeout(r, H - (Date.now() % H) + 2_000));
    const hour = Math.floor(Date.now() / H) * H;
    const capture = retimeCapture(readFileSync(CAPTURE), Math.max(hour + 5_000, Date.now() - 70_000));
    await pushCapture(capture, mountpoint);

    // The hour shows as available before anything is bought.
    const index = new Date(hour).getUTCHours();
    const cell = page.getByTestId('availability-bar').getByRole('button').nth(index);
    await until(
      async () => {
        await page.reload();
        await cell.waitFor();
        return (await cell.getAttribute('data-status')) === 'partial';
      },
      () => 'the current hour to show archived data',
      60_000,
      250,
    );
    expect(await cell.getAttribute('aria-pressed')).toBe('true');
    await page.getByLabel('Interval:').selectOption('1');
    await page.getByTestId('rinex-total').getByText('Price: 1 token').waitFor();
    await shoot(session, 'rinex-available', 'rinex-time-title');

    // Buy: price, balance and balance after, as token activation shows them.
    await page.getByRole('button', { name: 'Buy RINEX' }).click();
    const dialog = page.getByRole('dialog', { name: 'Buy RINEX data' });
    await until(
      async () =>
        // The tokens first, then what they cost in money.
        /^1 token \(€/.test((await dialog.getByTestId('rinex-price').textContent()) ?? '') &&
        (await dialog.getByTestId('rinex-balance').textContent()) === '100 tokens' &&
        (await dialog.getByTestId('rinex-balance-after').textContent()) === '99 tokens',
      () => 'the price (1 token and its euros), the balance (100) and the balance after (99)',
      10_000,
      250,
    );
    await dialog.getByRole('button', { name: 'Buy for 1 token' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const job = page.getByTestId('rinex-job').first();
    await job.waitFor();
    const bar = job.getByRole('progressbar', { name: 'Conversion progress' });
    if (await bar.isVisible().catch(() => false)) await shoot(session, 'rinex-running', 'rinex-history-title');
    await until(
      async () => (await job.getAttribute('data-status')) === 'done',
      async () => `the conversion to finish (the job reads: ${await job.textContent()})`,
      120_000,
    );
    await shoot(session, 'rinex-done', 'rinex-history-title');

    // The download: one zip with the observation and navigation files and the README.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      job.getByRole('link', { name: 'Download' }).click(),
    ]);
    const saved = join(dir, download.suggestedFilename());
    await download.saveAs(saved);
    const files = await unzip(readFileSync(saved));
    const names = [...files.keys()];
    const obsName = names.find((n) => /_01H_01S_MO\.rnx$/.test(n));
    expect(obsName).toMatch(new RegExp(`^${mountpoint.slice(0, 4)}[A-Z0-9]{5}_R_\\d{11}_01H_01S_MO\\.rnx$`));
    expect(names.some((n) => /_01H_MN\.rnx$/.test(n))).toBe(true);
    expect(names).toContain('README.txt');
    const obs = readObservationFile(files.get(obsName ?? '')?.toString() ?? '');
    expect(obs.header.get('MARKER NAME')?.trim()).toBe(mountpoint);
    const xyz = (obs.header.get('APPROX POSITION XYZ') ?? '').trim().split(/\s+/).map(Number);
    const arp = capturePosition(CAPTURE);
    expect(Math.hypot(...xyz.map((v, i) => v - (arp[i] as number)))).toBeLessThan(1);
    // The capture's 01:09:22–01:10:21 GPST at 1 Hz (gnss/test/fixtures/README.md), every epoch of it.
    expect(obs.epochs).toBe(60);
    // Offline map tiles and pages without stored meta (404) fail to load by design; nothing else may fail.
    expect(session.errors.filter((e) => !e.includes('Failed to load resource'))).toEqual([]);
    await session.context.close();
  });
});
