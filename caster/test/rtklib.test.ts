import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type Caster, createCaster, encodeFrame, type RefusalRecord, validFrames } from '../src/index.ts';
import { FakePorts } from './support/fakes.ts';
import { until } from './support/wait.ts';

/**
 * Interoperability with an independent implementation: RTKLIB's str2str as the base station (NTRIP 1 SOURCE)
 * and as the rover (NTRIP 1 GET). The capture starts with a cut frame, so the caster must drop bytes.
 */

function findStr2str(): string {
  try {
    return execFileSync('sh', ['-c', 'command -v str2str'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(
      "str2str was not found on PATH. Install Debian's rtklib package (apt-get install -y rtklib); .ci/run installs it.",
    );
  }
}

/** A frame that is not in the capture, sent until one reaches the caster. */
const PROBE = encodeFrame(Buffer.from([0x43, 0x50, 0, 0, 0, 0]));
const capturePath = fileURLToPath(new URL('./fixtures/oem729_hiroshima_20221213_msm7_alleph.rtcm3', import.meta.url));
const children: ChildProcess[] = [];
const servers: net.Server[] = [];
let caster: Caster | null = null;
let dir: string | null = null;

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const server of servers.splice(0)) server.close();
  await caster?.close();
  caster = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const waitFor = (condition: () => unknown, what: () => string) => until(condition, what, 20_000);

describe('RTKLIB str2str', () => {
  it('base station and rover through the caster: the rover gets exactly the valid frames of the capture', async () => {
    const str2str = findStr2str();
    const ports = new FakePorts().addNetwork('jp').addStation('HIRO', 'jp', 34.4, 132.5, 'base-pass');
    ports.accounts.push({ username: 'rtkrover', password: 'rover-pass', accountId: 'acc-rtk', networks: ['jp'] });
    caster = await createCaster({ ports });
    const { port } = await caster.listen(0, '127.0.0.1');
    dir = mkdtempSync(join(tmpdir(), 'caster-rtklib-'));
    const out = join(dir, 'rover.rtcm3');
    const logs: Record<string, string> = { rover: '', base: '' };
    const run = (name: 'rover' | 'base', args: string[]) => {
      const child = spawn(str2str, args, { stdio: ['ignore', 'pipe', 'pipe'] });
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
    const stats = () => caster?.stats().mounts.find((m) => m.mountpoint === 'HIRO');

    run('rover', ['-in', `ntrip://rtkrover:rover-pass@127.0.0.1:${port}/HIRO`, '-out', `file://${out}`]);
    await waitFor(
      () => stats()?.rovers === 1,
      () => `str2str rover to log in (its log: ${logs.rover})`,
    );
    // The capture is played to str2str over TCP at about 200 kB/s: read from the file at full speed it would
    // arrive faster than the rover str2str reads, and the caster rightly drops a rover that falls 64 kB behind.
    const capture = readFileSync(capturePath);
    const player = net.createServer(async (socket) => {
      // str2str drops what its input delivers before its NTRIP output is logged in, and under load that login
      // can take a while: play only once a probe frame, sent again at each look, has come through to the caster.
      await waitFor(
        async () => {
          if (!socket.destroyed) socket.write(PROBE);
          const live = await caster?.live({ sources: true });
          return live?.nodes[0]?.sources.some((s) => s.mountpoint === 'HIRO' && s.lastFrameAt !== null);
        },
        () => `str2str base to log in and relay (its log: ${logs.base})`,
      );
      let offset = 0;
      const timer = setInterval(() => {
        if (offset >= capture.length || socket.destroyed) return clearInterval(timer);
        socket.write(capture.subarray(offset, offset + 4096));
        offset += 4096;
      }, 20);
      socket.on('error', () => clearInterval(timer));
    });
    servers.push(player);
    await new Promise<void>((resolve) => player.listen(0, '127.0.0.1', resolve));
    const playerPort = (player.address() as net.AddressInfo).port;
    run('base', ['-in', `tcpcli://127.0.0.1:${playerPort}`, '-out', `ntrips://:base-pass@127.0.0.1:${port}/HIRO`]);

    const frames = Buffer.concat(validFrames(capture));
    const received = () => (existsSync(out) ? readFileSync(out) : Buffer.alloc(0));
    // RTKLIB strips 'ICY 200 OK\r\n' from the answer and keeps the blank line that ends it as stream data; the
    // probes that came through before the capture follow it.
    const capturePart = () => {
      let body = received().subarray(2);
      while (body.subarray(0, PROBE.length).equals(PROBE)) body = body.subarray(PROBE.length);
      return body;
    };
    await waitFor(
      () => capturePart().length >= frames.length,
      () =>
        `the rover file to hold ${frames.length} bytes of the capture, has ${capturePart().length} (base: ${logs.base}; rover: ${logs.rover})`,
    );
    expect(received().subarray(0, 2).toString('latin1')).toBe('\r\n');
    expect(capturePart().length).toBe(frames.length);
    expect(capturePart().equals(frames)).toBe(true);
    expect(frames.length).toBeLessThan(capture.length);
  });

  it('lists a str2str rover on the nearest-station mountpoint without -n before str2str gives up, with defaults', async () => {
    const str2str = findStr2str();
    const ports = new FakePorts().addNetwork('nl').addStation('AMS1', 'nl', 52.37, 4.9);
    ports.accounts.push({ username: 'nearrover', password: 'rover-pass', accountId: 'acc-near', networks: ['nl'] });
    const refusals: RefusalRecord[] = [];
    ports.usage = {
      ...ports.usage,
      recordRefusals: async (records: RefusalRecord[]) => void refusals.push(...records),
    } as FakePorts['usage'];
    // The caster's default limits, and str2str's: it waits 10 s for data, then connects again.
    caster = await createCaster({ ports });
    const { port } = await caster.listen(0, '127.0.0.1');
    dir = mkdtempSync(join(tmpdir(), 'caster-rtklib-near-'));
    let log = '';
    const started = Date.now();
    const rover = spawn(
      str2str,
      ['-in', `ntrip://nearrover:rover-pass@127.0.0.1:${port}/NL_NEAR`, '-out', `file://${join(dir, 'near.rtcm3')}`],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(rover);
    rover.stderr?.on('data', (d: Buffer) => {
      log += d.toString();
    });
    await until(
      () => refusals.some((r) => r.reason === 'near_no_position'),
      () => `a near_no_position entry (refusals: ${JSON.stringify(refusals)}; str2str: ${log})`,
      30_000,
    );
    const entry = refusals.find((r) => r.reason === 'near_no_position');
    expect(entry).toMatchObject({ accountId: 'acc-near', mountpoint: 'NL_NEAR', ntripVersion: 1 });
    expect(entry?.userAgent).toMatch(/RTKLIB/);
    // Listed while str2str still waited, or, had it gone sooner, with the seconds it stayed: never lost.
    expect(entry?.detail.waitedSeconds).toBeLessThanOrEqual(10);
    console.log(`near_no_position listed ${Date.now() - started} ms after str2str started`);
  });
});
