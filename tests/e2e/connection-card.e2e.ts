import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validFrames } from '@portal/caster';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signUp } from './support/auth';
import { launchBrowser, newSession } from './support/browser';
import { buyTokens, createNtripAccount, feedStation, until } from './support/ntrip';

/** What the card tells the user to replace with the account's password. */
const PLACEHOLDER = '<password>';

/** Message types of whole RTCM3 frames in what a rover wrote to its file. */
function messageTypes(file: string): number[] {
  if (!existsSync(file)) return [];
  return validFrames(readFileSync(file)).map((f) => ((f[3] as number) << 4) | ((f[4] as number) >> 4));
}

/** Ends a pasted command with everything it started; a group that already ended is fine. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  // script(1) runs its command in a session of its own: end the children first, then the group.
  const children = (() => {
    try {
      return readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').split(' ').filter(Boolean);
    } catch {
      return [];
    }
  })();
  for (const pid of [...children.map(Number), -(child.pid ?? 0)]) {
    try {
      if (pid) process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

describe('connection card in Chromium', () => {
  let browser: Browser;
  const dirs: string[] = [];
  const shells: ChildProcess[] = [];
  const feeds: Array<{ stop(): void }> = [];
  const logs: string[] = [];

  /** Runs a line as a user pastes it into a shell, in a folder of its own; its output is kept for failures. */
  const paste = (line: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'connection-card-'));
    dirs.push(dir);
    const index = logs.push('') - 1;
    const shell = spawn('sh', ['-c', line], { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (d: Buffer) => {
      logs[index] += d.toString();
    };
    shell.stdout?.on('data', keep);
    shell.stderr?.on('data', keep);
    shells.push(shell);
    const exited = new Promise<void>((resolve) => shell.once('exit', () => resolve()));
    return {
      file: join(dir, 'corrections.rtcm3'),
      log: () => logs[index],
      /** Resolves once the command is gone, and with it its connection. */
      stop: () => {
        killGroup(shell, 'SIGTERM');
        return exited;
      },
    };
  };

  /**
   * rtkrcv with a configuration file, its console on a pseudo-terminal (script(1)); `console` types a command and
   * returns what the console printed in the next second, escape sequences removed.
   */
  const rtkrcv = (conf: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'connection-card-rtkrcv-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'rover.conf'), conf);
    const shell = spawn('script', ['-qfc', 'rtkrcv -s -o rover.conf', '/dev/null'], {
      cwd: dir,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    shells.push(shell);
    let output = '';
    shell.stdout?.on('data', (d: Buffer) => {
      output += d.toString('latin1');
    });
    return {
      async console(command: string): Promise<string> {
        const from = output.length;
        shell.stdin?.write(`${command}\r`);
        await new Promise((r) => setTimeout(r, 1000));
        // biome-ignore lint/suspicious/noControlCharactersInRegex: the console's colour codes
        return output.slice(from).replace(/\u001b\[[0-9;]*m/g, '');
      },
      stop: () => killGroup(shell, 'SIGKILL'),
    };
  };

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const shell of shells) killGroup(shell, 'SIGKILL');
    for (const feed of feeds) feed.stop();
    await browser?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const started = Date.now();
  /** Progress in the log, so a timeout says where the journey stood. */
  const step = (what: string) =>
    console.log(`connection card e2e: ${what} after ${Math.round((Date.now() - started) / 1000)} s`);

  it("runs the card's str2str lines as shown, password put in, and receives RTCM3 on a fixed and a nearest-station mountpoint; the test button lists the capture's message types", async () => {
    const session = await newSession(browser);
    const { page } = session;
    const casterPort = inject('casterPort');
    // The card recommends only stations that send (issue 32): Rotterdam's sends from the start, for both rovers.
    const rotterdam = 'ROTT00NLD0';
    feeds.push(await feedStation(casterPort, rotterdam));
    await signUp(session);
    await buyTokens(session);

    step('tokens bought');
    await session.goto('/accounts');
    const { password } = await createNtripAccount(page, 'Card rover');

    await page.getByRole('button', { name: 'Activate tokens' }).click();
    const activate = page.getByRole('dialog', { name: 'Activate tokens' });
    const network = activate.getByLabel('Network:');
    await network.selectOption((await network.locator('option', { hasText: 'Dutch RTK' }).getAttribute('value')) ?? '');
    await activate.getByRole('button', { name: 'Activate for 10 tokens' }).click();
    await page.getByRole('dialog', { name: 'Activated' }).waitFor();
    await page.getByRole('button', { name: 'Done' }).click();

    step('account created and activated');
    await page.getByRole('button', { name: 'Details' }).click();
    const card = page.getByRole('dialog', { name: 'Card rover' }).getByTestId('connection-card');
    const line = card.getByTestId('str2str-line');
    await line.waitFor();
    const text = async (locator: Locator) => (await locator.textContent())?.trim() ?? '';

    // Without a position: a fixed station's own mountpoint, no -p.
    const fixed = await text(card.getByTestId('recommended-mountpoint'));
    expect(fixed).toMatch(/^[A-Z]{4}\d\dNLD0$/);
    const fixedLine = await text(line);
    expect(fixedLine).toMatch(
      new RegExp(
        `^str2str -in ntrip://rtk-\\w+:${PLACEHOLDER}@127\\.0\\.0\\.1:${casterPort}/${fixed} -out file://corrections\\.rtcm3$`,
      ),
    );
    step('fixed line read');
    // Should another station come first among those online, it is fed for this rover.
    const extraFeed = fixed === rotterdam ? undefined : await feedStation(casterPort, fixed);
    const first = paste(fixedLine.replaceAll(PLACEHOLDER, password));
    await until(
      () => messageTypes(first.file).filter((t) => t === 1077).length >= 5,
      () => `RTCM3 observations from ${fixed} (str2str: ${first.log()})`,
    );
    expect(messageTypes(first.file)).toEqual(expect.arrayContaining([1077, 1087]));

    step('fixed rover received');
    // The server's test takes one of the account's connections like a rover (ADR 0050): free the only one first.
    await first.stop();
    await card.getByRole('button', { name: `Test ${fixed}` }).click();
    const result = card.getByTestId('connection-test-result');
    await result.waitFor({ timeout: 30_000 });
    expect(await result.textContent()).toContain(`Corrections arrive on ${fixed}`);
    const messages = await result.getByTestId('connection-test-messages').locator('tbody tr').allTextContents();
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^1005Station position/),
        expect.stringMatching(/^1077GPS observations \(MSM7\)/),
        expect.stringMatching(/^1019GPS ephemeris/),
      ]),
    );
    expect(await result.getByTestId('connection-test-satellites').textContent()).toMatch(/GPS \d+/);
    await session.screenshot('connection-card-test-connection');
    extraFeed?.stop();

    step('test connection listed');
    // A position in Rotterdam: the nearest-station mountpoint, with the position sent by -p every -n ms.
    await card.getByLabel('Latitude (°):').fill('51.93');
    await card.getByLabel('Longitude (°):').fill('4.48');
    await until(
      async () => (await text(card.getByTestId('recommended-mountpoint'))) === 'DUTCH-RTK_NEAR',
      () => 'the nearest-station mountpoint to be recommended',
    );
    const served = /serves (\S+) \(Rotterdam\)/.exec((await card.textContent()) ?? '')?.[1] ?? '';
    expect(served).toBe(rotterdam);
    const nearLine = await text(line);
    expect(nearLine).toBe(
      `str2str -in ntrip://${nearLine.split('//')[1]?.split(':')[0]}:${PLACEHOLDER}@127.0.0.1:${casterPort}/DUTCH-RTK_NEAR -p 51.9300000 4.4800000 0.0 -n 5000 -out file://corrections.rtcm3`,
    );
    await session.screenshot('connection-card-nearest-station');
    const second = paste(nearLine.replaceAll(PLACEHOLDER, password));
    await until(
      () => messageTypes(second.file).filter((t) => t === 1077).length >= 5,
      () => `RTCM3 observations on DUTCH-RTK_NEAR (str2str: ${second.log()})`,
    );
    // The caster sends the station's position first when it assigns a station to a nearest-station rover.
    expect(messageTypes(second.file)[0]).toBe(1005);
    second.stop();

    step('nearest-station rover received');
    // rtkrcv: its own NTRIP client's lines are read by rtkrcv as written (Debian's rtkrcv cannot open that
    // stream, so it is not run); the relay lines are run: str2str logs in, rtkrcv receives the corrections.
    await card.getByRole('tab', { name: 'RTKLIB rtkrcv' }).click();
    const options = (await text(card.getByTestId('rtkrcv-options'))).replaceAll(PLACEHOLDER, password);
    const own = rtkrcv(`${options}\ninpstr1-type       =off\n`);
    await until(
      async () => (await own.console('option inpstr2')).includes('inpstr2-type       =ntripcli'),
      () => 'rtkrcv to show its options',
    );
    const parsed = await own.console('option inpstr2');
    expect(parsed).toContain(`inpstr2-path       =${options.split('\n')[1]?.split('=')[1]}`);
    expect(parsed).toMatch(/inpstr2-nmeareq\s+=latlon/);
    expect(parsed).toMatch(/inpstr2-nmealat\s+=51\.93/);
    expect(parsed).toMatch(/inpstr2-nmealon\s+=4\.48/);
    own.stop();

    step('rtkrcv read its lines');
    const relayLine = (await text(card.getByTestId('rtkrcv-relay-command'))).replaceAll(PLACEHOLDER, password);
    expect(relayLine).toMatch(/ -out tcpsvr:\/\/:2102$/);
    const relay = paste(relayLine);
    const receiver = rtkrcv(`${await text(card.getByTestId('rtkrcv-relay-options'))}\ninpstr1-type       =off\n`);
    const baseBytes = async () => {
      const line = (await receiver.console('stream')).split('\n').find((l) => l.startsWith('input base')) ?? '';
      return Number(/^input base\s+tcpcli\s+rtcm3\s+\S\s+(\d+)/.exec(line)?.[1] ?? 0);
    };
    await until(
      async () => (await baseBytes()) > 10_000,
      () => `rtkrcv to receive corrections (str2str: ${relay.log()})`,
      60_000,
    );
    receiver.stop();
    relay.stop();
  }, 300_000);
});
