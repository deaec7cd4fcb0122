import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { frameMessageType } from '@portal/gnss';
import { afterEach, describe, expect, it } from 'vitest';
import { type Caster, createCaster, formatGga, validFrames } from '../src/index.ts';
import { fixture, Peer, roverRequest } from './support/client.ts';
import { FakePorts } from './support/fakes.ts';
import { until } from './support/wait.ts';

/**
 * RTCM output profiles (issue 36, ADR 0088): what rovers on each profile receive through the caster, and that the
 * rovers of one station and profile share one encoding.
 */

const ANTENNA = 'TRM59800.00     SCIS';
const capture = fixture('oem729_hiroshima_20221213_msm7_alleph.rtcm3');
const captureFrames = validFrames(capture);

const children: ChildProcess[] = [];
const peers: Peer[] = [];
let caster: Caster | null = null;
let dir: string | null = null;

afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const peer of peers.splice(0)) peer.close();
  await caster?.close();
  caster = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

function findStr2str(): string {
  try {
    return execFileSync('sh', ['-c', 'command -v str2str'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error("str2str was not found on PATH. Install Debian's rtklib package (apt-get install -y rtklib).");
  }
}

const isMsm = (type: number) => type >= 1071 && type <= 1137 && type % 10 >= 1 && type % 10 <= 7;
const typesOf = (frames: Buffer[]) => frames.map(frameMessageType);

/** Every 1005/1006 is followed at once by a 1008 (the catalogue's antenna). */
function antennaFollowsPosition(types: number[]): boolean {
  return types.every((type, i) => (type !== 1005 && type !== 1006) || i + 1 >= types.length || types[i + 1] === 1008);
}

async function startCaster(ports: FakePorts) {
  caster = await createCaster({ ports });
  return (await caster.listen(0, '127.0.0.1')).port;
}

/** Plays the capture as a push source at about 200 kB/s, so no rover falls its backlog limit behind. */
async function playCapture(port: number, mountpoint: string) {
  const source = await Peer.connect(port);
  peers.push(source);
  source.write(`SOURCE src-secret /${mountpoint}\r\nSource-Agent: NTRIP test-source\r\n\r\n`);
  await source.until((p) => p.text().includes('\r\n'), 'source answer');
  for (let offset = 0; offset < capture.length; offset += 4096) {
    source.write(capture.subarray(offset, offset + 4096));
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('RTCM output profiles', () => {
  it('real str2str rovers on each profile receive what the profile says', async () => {
    const str2str = findStr2str();
    const ports = new FakePorts().addNetwork('jp').addStation('HIRO', 'jp', 34.4, 132.5);
    (ports.stations[0] as { antenna?: string }).antenna = ANTENNA;
    const account = (username: string, extra: Partial<(typeof ports.accounts)[number]>) =>
      ports.accounts.push({ username, password: 'pw', accountId: `acc-${username}`, networks: ['jp'], ...extra });
    account('plain', { maxConnections: 2 });
    account('msm4', { rtcmProfile: 'msm4' });
    account('legacy', { rtcmProfile: 'legacy' });
    account('gpsglo', { constellations: ['GLO', 'GPS'] });
    const port = await startCaster(ports);
    dir = mkdtempSync(join(tmpdir(), 'caster-profiles-'));
    const logs: Record<string, string> = {};
    const rovers: Array<[name: string, user: string, mountpoint: string]> = [
      ['as-sent', 'plain', 'HIRO'],
      ['msm4', 'msm4', 'HIRO'],
      ['legacy', 'legacy', 'HIRO'],
      ['gpsglo', 'gpsglo', 'HIRO'],
      // The suffix chooses the profile for a client that can change nothing but the mountpoint.
      ['suffix', 'plain', 'hiro_LEGACY'],
    ];
    const fileOf = (name: string) => join(dir as string, `${name}.rtcm3`);
    for (const [name, user, mountpoint] of rovers) {
      logs[name] = '';
      const child = spawn(
        str2str,
        ['-in', `ntrip://${user}:pw@127.0.0.1:${port}/${mountpoint}`, '-out', `file://${fileOf(name)}`],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const keep = (d: Buffer) => {
        logs[name] += d.toString();
      };
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      children.push(child);
    }
    const stats = () => caster?.stats().mounts.find((m) => m.mountpoint === 'HIRO');
    await until(
      () => stats()?.rovers === rovers.length,
      () => `the str2str rovers to log in (${JSON.stringify(logs)})`,
      20_000,
    );
    const live = await caster?.live({ sessions: { all: true } });
    const profileOf = (user: string, mountpoint: string) =>
      live?.nodes[0]?.sessions
        .filter((s) => s.accountId === `acc-${user}` && s.mountpoint === mountpoint)
        .map((s) => [s.rtcmProfile, s.constellations]);
    expect(profileOf('msm4', 'HIRO')).toEqual([['msm4', null]]);
    expect(profileOf('gpsglo', 'HIRO')).toEqual([['as-sent', ['GPS', 'GLO']]]);
    expect(profileOf('plain', 'HIRO')?.sort()).toEqual([
      ['as-sent', null],
      ['legacy', null],
    ]);

    await playCapture(port, 'HIRO');
    const received = (name: string) => {
      const file = fileOf(name);
      // RTKLIB keeps the blank line that ends the NTRIP 1 answer as stream data.
      return existsSync(file) ? readFileSync(file).subarray(2) : Buffer.alloc(0);
    };
    const asSentBytes = Buffer.concat(captureFrames);
    await until(
      () => received('as-sent').length >= asSentBytes.length,
      () => `the as-sent rover to receive the whole capture (${received('as-sent').length} bytes)`,
      20_000,
    );
    // The other outputs were made from the same frames in the same turn; give str2str a moment to write them.
    await new Promise((r) => setTimeout(r, 500));

    // as-sent: the station's frames byte for byte.
    expect(received('as-sent').equals(asSentBytes)).toBe(true);

    const sourceTypes = new Set(typesOf(captureFrames));
    for (const name of ['msm4', 'legacy', 'gpsglo', 'suffix']) {
      const bytes = received(name);
      const frames = validFrames(bytes);
      // Every byte is inside a CRC-valid frame.
      expect(Buffer.concat(frames).length, name).toBe(bytes.length);
      const types = typesOf(frames);
      expect(antennaFollowsPosition(types), name).toBe(true);
      expect(types.filter((t) => t === 1005).length, name).toBe(54);
      expect(types.filter((t) => t === 1008).length, name).toBe(54);
    }

    const msm4 = new Set(typesOf(validFrames(received('msm4'))));
    expect([...msm4].filter(isMsm).sort()).toEqual([1074, 1084, 1094, 1114, 1124, 1134]);
    // The ephemerides and the station's own 1033 pass.
    for (const type of [1019, 1020, 1033, 1042, 1045]) expect(msm4.has(type), String(type)).toBe(true);

    for (const name of ['legacy', 'suffix']) {
      const legacy = new Set(typesOf(validFrames(received(name))));
      expect([...legacy].filter(isMsm), name).toEqual([]);
      expect(legacy.has(1004) && legacy.has(1012), name).toBe(true);
      for (const type of [1005, 1008, 1019, 1020, 1033]) expect(legacy.has(type), `${name} ${type}`).toBe(true);
    }

    // GPS and GLONASS only: their MSM7 as the station sent it, nothing of Galileo, QZSS, BeiDou or NavIC.
    const gpsglo = new Set(typesOf(validFrames(received('gpsglo'))));
    expect([...gpsglo].filter(isMsm).sort()).toEqual([1077, 1087]);
    for (const type of [1042, 1044, 1045, 1046, 1041]) expect(gpsglo.has(type), String(type)).toBe(false);
    expect(sourceTypes.has(1097) && sourceTypes.has(1127)).toBe(true);

    // The session log keeps what each rover was served.
    for (const child of children.splice(0)) child.kill('SIGKILL');
    await until(
      () => ports.sessions.length === rovers.length,
      () => `the sessions to be logged (${ports.sessions.length})`,
      10_000,
    );
    expect(ports.sessions.map((s) => `${s.accountId} ${s.mountpoint} ${s.rtcmProfile}`).sort()).toEqual([
      'acc-gpsglo HIRO as-sent',
      'acc-legacy HIRO legacy',
      'acc-msm4 HIRO msm4',
      'acc-plain HIRO as-sent',
      'acc-plain HIRO legacy',
    ]);
  });

  it('rovers on one station and profile share one encoding and get the same frames', async () => {
    const ports = new FakePorts().addNetwork('jp').addStation('HIRO', 'jp', 34.4, 132.5);
    (ports.stations[0] as { antenna?: string }).antenna = ANTENNA;
    ports.accounts.push(
      { username: 'a', password: 'pw', accountId: 'acc-a', networks: ['jp'], rtcmProfile: 'msm4' },
      { username: 'b', password: 'pw', accountId: 'acc-b', networks: ['jp'], rtcmProfile: 'msm4' },
      { username: 'c', password: 'pw', accountId: 'acc-c', networks: ['jp'] },
    );
    const port = await startCaster(ports);
    const rover = async (user: string, version: 1 | 2, mountpoint = 'HIRO') => {
      const peer = await Peer.connect(port);
      peers.push(peer);
      peer.write(roverRequest(mountpoint, version, [user, 'pw']));
      await peer.until((p) => p.text().includes('\r\n\r\n'), 'rover answer');
      return peer;
    };
    const a = await rover('a', 1);
    const b = await rover('b', 1);
    // The as-sent account asking for MSM4 by suffix joins the same output.
    const c = await rover('c', 1, 'HIRO_MSM4');
    await until(
      () => caster?.stats().mounts[0]?.rovers === 3,
      () => 'three rovers',
    );
    expect(caster?.stats().mounts[0]?.outputs).toEqual([{ key: 'msm4', rovers: 3 }]);
    await playCapture(port, 'HIRO');
    await until(
      () => validFrames(a.body()).filter((f) => frameMessageType(f) === 1005).length === 54,
      () => 'the whole capture re-encoded',
      20_000,
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(a.body().length).toBeGreaterThan(0);
    expect(b.body().equals(a.body())).toBe(true);
    expect(c.body().equals(a.body())).toBe(true);
    // A rover that leaves takes its output with it once it was the last.
    for (const peer of [a, b, c]) peer.close();
    await until(
      () => caster?.stats().mounts[0]?.rovers === 0,
      () => 'the rovers to go',
    );
    expect(caster?.stats().mounts[0]?.outputs).toEqual([]);
  });

  it('a nearest-station rover on a profile starts with the station’s position and antenna in that profile', async () => {
    const ports = new FakePorts().addNetwork('jp').addStation('HIRO', 'jp', 34.4, 132.5);
    (ports.stations[0] as { antenna?: string }).antenna = ANTENNA;
    ports.accounts.push({
      username: 'near',
      password: 'pw',
      accountId: 'acc-near',
      networks: ['jp'],
      rtcmProfile: 'msm4',
    });
    const port = await startCaster(ports);
    // The station has sent its position and antenna before the rover comes; its source stays connected.
    await playCapture(port, 'HIRO');
    const rover = await Peer.connect(port);
    peers.push(rover);
    rover.write(roverRequest('JP_NEAR_MSM4', 1, ['near', 'pw']));
    await rover.until((p) => p.text().includes('\r\n\r\n'), 'rover answer');
    rover.write(formatGga({ latitude: 34.4, longitude: 132.5 }, 'GP'));
    await rover.until((p) => validFrames(p.body()).length >= 3, 'the station messages', 10_000);
    expect(typesOf(validFrames(rover.body())).slice(0, 3)).toEqual([1005, 1008, 1033]);
    expect(caster?.stats().mounts[0]?.outputs).toEqual([{ key: 'msm4', rovers: 1 }]);
  });
});
