import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validFrames } from '@portal/caster';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signUp } from './support/auth';
import { launchBrowser, newSession } from './support/browser';
import { buyTokens, CAPTURE, createNtripAccount, pushCapture, until } from './support/ntrip';

/** Debian's rtklib package (installed by .ci/run). */
const STR2STR = process.env.STR2STR_PATH ?? '/usr/bin/str2str';

/** Source connections kept open until the end, so the station stays online while the session is checked. */
const sources: net.Socket[] = [];

describe('NTRIP journey in Chromium', () => {
  let browser: Browser;
  let dir: string;
  const children: ChildProcess[] = [];
  const logs: Record<string, string> = {};

  const run = (name: string, args: string[]) => {
    logs[name] = '';
    const child = spawn(STR2STR, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (d: Buffer) => {
      logs[name] += d.toString();
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('exit', (code, signal) => {
      logs[name] += ` [exited ${code ?? signal}]`;
    });
    children.push(child);
    return child;
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    dir = mkdtempSync(join(tmpdir(), 'ntrip-journey-'));
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    for (const socket of sources) socket.destroy();
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sign up, buy tokens, create an account, activate a day, stream RTCM3 with str2str, see the session', async () => {
    const session = await newSession(browser);
    const { page } = session;
    await signUp(session);
    await buyTokens(session);

    // Create an NTRIP account: the password is shown once.
    await session.goto('/accounts');
    const { username, password } = await createNtripAccount(page, 'E2E rover');

    // Activate 1 day on the Dutch network: the price and the balance after show before confirming.
    await page.getByRole('button', { name: 'Activate tokens' }).click();
    const activate = page.getByRole('dialog', { name: 'Activate tokens' });
    const network = activate.getByLabel('Network:');
    const dutch = await network.locator('option', { hasText: 'Dutch RTK' }).getAttribute('value');
    await network.selectOption(dutch ?? '');
    await activate.getByLabel('Days:').fill('1');
    const price = activate.getByTestId('activation-price');
    const after = activate.getByTestId('activation-balance-after');
    await until(
      // The price also shows what the tokens cost in money (issue 32): '10 tokens (≈ €…)'.
      async () =>
        ((await price.textContent()) ?? '').startsWith('10 tokens') && (await after.textContent()) === '90 tokens',
      () => 'the price (10 tokens) and the balance after (90 tokens)',
      10_000,
    );
    await activate.getByRole('button', { name: 'Activate for 10 tokens' }).click();
    await page.getByRole('dialog', { name: 'Activated' }).waitFor();
    await page.getByRole('button', { name: 'Done' }).click();

    // Connection details: the nearest-station mountpoint first, then the network's stations.
    await page.getByRole('button', { name: 'Details' }).click();
    const details = page.getByRole('dialog', { name: 'E2E rover' });
    const mountpoints = details.locator('li code');
    await mountpoints.first().waitFor();
    const names = await mountpoints.allTextContents();
    expect(names[0]).toBe('DUTCH-RTK_NEAR');
    const mountpoint = names[1] ?? '';
    expect(mountpoint).not.toBe('');
    await session.screenshot('ntrip-account-connection-details');

    // A real NTRIP client logs in with those credentials; then the station's replayed capture is pushed.
    const port = inject('casterPort');
    const out = join(dir, 'rover.rtcm3');
    const rover = run('rover', [
      '-in',
      `ntrip://${username}:${password}@127.0.0.1:${port}/${mountpoint}`,
      '-out',
      `file://${out}`,
    ]);
    await page.keyboard.press('Escape');
    await until(
      async () => {
        await page.reload();
        await page.getByRole('region', { name: 'Your accounts' }).waitFor();
        return page.getByText('1 rover connected').isVisible();
      },
      () => `the account to show a connected rover (rover: ${logs.rover})`,
    );
    sources.push(await pushCapture(port, mountpoint));

    const frames = Buffer.concat(validFrames(readFileSync(CAPTURE)));
    const size = () => (existsSync(out) ? readFileSync(out).length : 0);
    await until(
      () => size() >= frames.length,
      () => `the rover to receive the capture's ${frames.length} bytes of frames (has ${size()}; rover: ${logs.rover})`,
    );
    const received = Buffer.concat(validFrames(readFileSync(out)));
    // What arrived is the station's stream: exactly its whole RTCM3 frames, in the capture's order.
    expect(received.equals(frames)).toBe(true);

    // The session ends and shows on the account's usage list.
    rover.kill('SIGTERM');
    await until(
      async () => {
        await page.reload();
        await page.getByRole('button', { name: 'Details' }).click();
        const dialog = page.getByRole('dialog', { name: 'E2E rover' });
        await dialog.getByRole('tab', { name: 'Usage' }).click();
        await dialog.getByRole('heading', { name: 'Connection log' }).waitFor();
        await page.waitForTimeout(500);
        return dialog.locator('td', { hasText: mountpoint }).first().isVisible();
      },
      () => 'the session to show on the usage list',
      45_000,
    );
    const row = page.getByRole('dialog', { name: 'E2E rover' }).locator('tr', { hasText: mountpoint }).first();
    const text = (await row.textContent()) ?? '';
    console.log(`usage row: ${text}`);
    expect(text).toMatch(/kB|MB/);
    await session.screenshot('ntrip-account-usage');
  });
});
