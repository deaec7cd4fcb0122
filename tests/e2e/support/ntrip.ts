import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { until as waitUntil } from '../../../caster/test/support/wait.ts';
import type { Session } from './browser';
import { payInPortal } from './checkout';

/** A real base-station capture (NovAtel OEM729, Hiroshima), pushed as a station's feed. */
export const CAPTURE = new URL(
  '../../../caster/test/fixtures/oem729_hiroshima_20221213_msm7_alleph.rtcm3',
  import.meta.url,
).pathname;
/** Source password of every seeded push feed (server/src/modules/catalogue/catalogue.seed.ts). */
export const DEMO_SOURCE_PASSWORD = 'demo-source-2026';

/** The e2e tests' wait: the portal, its caster and Chromium share a loaded machine, so 30 s, asked five times a second. */
export const until = (check: () => boolean | Promise<boolean>, what: () => string, ms = 30_000) =>
  waitUntil(check, what, ms, 200);

/** Logs in as the station's NTRIP 1 source; resolves with the socket once the caster answered ICY 200 OK. */
async function sourceLogin(port: number, mountpoint: string): Promise<net.Socket> {
  const socket = net.connect({ port, host: '127.0.0.1' });
  socket.on('error', () => {});
  socket.write(`SOURCE ${DEMO_SOURCE_PASSWORD} /${mountpoint}\r\nSource-Agent: NTRIP e2e-base\r\n\r\n`);
  const [answer] = (await once(socket, 'data')) as [Buffer];
  expect(answer.toString('latin1')).toMatch(/^ICY 200 OK\r\n/);
  return socket;
}

/**
 * Pushes the capture once as the station's source. Bytes go out only after the caster's ICY 200 OK (a source
 * that streams before its login is answered loses them, and under load that answer takes a while), at about
 * 200 kB/s, the pace a rover on loopback keeps up with (the caster drops a rover that falls 64 kB behind). The
 * socket stays open, so the station stays online, until the caller destroys it.
 */
export async function pushCapture(port: number, mountpoint: string): Promise<net.Socket> {
  const capture = readFileSync(CAPTURE);
  const socket = await sourceLogin(port, mountpoint);
  for (let offset = 0; offset < capture.length; offset += 4096) {
    socket.write(capture.subarray(offset, offset + 4096));
    await new Promise((r) => setTimeout(r, 20));
  }
  return socket;
}

/**
 * Feeds the station with the capture over and over at about 40 kB/s (a real base station's 1 Hz stream is a few
 * kB/s), for rovers that log in or get their station at a moment the test does not control. `stop` closes it.
 */
export async function feedStation(port: number, mountpoint: string): Promise<{ stop(): void }> {
  const capture = readFileSync(CAPTURE);
  const socket = await sourceLogin(port, mountpoint);
  let offset = 0;
  const timer = setInterval(() => {
    if (socket.destroyed) return clearInterval(timer);
    socket.write(capture.subarray(offset, offset + 4096));
    offset = offset + 4096 >= capture.length ? 0 : offset + 4096;
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

/**
 * A plain NTRIP 1 rover over TCP, as the simplest field device logs in. `answer` settles with `ICY 200 OK` once the
 * caster serves it, or with the caster's whole reply (status line and plain-text reason) when it refuses and closes;
 * `closed` settles when the connection ends, whoever ends it.
 */
export function ntripRover(port: number, mountpoint: string, username: string, password: string) {
  const socket = net.connect({ port, host: '127.0.0.1' });
  socket.on('error', () => {});
  let reply = '';
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const answer = new Promise<string>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('latin1');
      if (reply.startsWith('ICY 200 OK\r\n')) resolve('ICY 200 OK');
    });
    socket.once('close', () => resolve(reply));
  });
  const auth = Buffer.from(`${username}:${password}`).toString('base64');
  socket.write(`GET /${mountpoint} HTTP/1.0\r\nUser-Agent: NTRIP e2e-rover\r\nAuthorization: Basic ${auth}\r\n\r\n`);
  return { answer, closed, close: () => socket.destroy() };
}

/** The seeded 100-token pack (server/src/modules/billing/billing.seed.ts) as the sandbox provider names it. */
const TOKENS_100 = 'price_sbx_demo-tokens-100';

/** Buys 100 tokens on /credits, paid with 4242… in the portal's checkout page the buy button opens in a new tab,
 * which is closed again. */
export async function buyTokens(session: Session): Promise<void> {
  await session.goto('/credits');
  const checkout = await payInPortal(session.page, TOKENS_100);
  await checkout.getByTestId('checkout-success').waitFor();
  await checkout.close();
}

/** Creates an NTRIP account on /accounts (the page must be open) and reads the username and the once-shown password. */
export async function createNtripAccount(page: Page, label: string): Promise<{ username: string; password: string }> {
  await page.getByRole('button', { name: 'Create account' }).click();
  const create = page.getByRole('dialog', { name: 'Create an NTRIP account' });
  await create.getByLabel('Label:').fill(label);
  await create.getByRole('button', { name: 'Create account' }).click();
  const created = page.getByRole('dialog', { name: 'Account created' });
  const username = (await created.getByTestId('new-username').textContent())?.trim() ?? '';
  const password = (await created.getByTestId('new-password').textContent())?.trim() ?? '';
  expect(username).toMatch(/^rtk-/);
  expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
  await created.getByRole('button', { name: 'Done' }).click();
  return { username, password };
}
