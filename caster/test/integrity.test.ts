import { readFileSync } from 'node:fs';
import {
  decodeStationPosition,
  ecefToGeodetic,
  encodeStationPosition,
  getBitU,
  gpstToUtc,
  resolveTow,
  utcToGpst,
} from '@portal/gnss';
import { afterEach, describe, expect, it } from 'vitest';
import { epochsOf } from '../src/base/pusher.ts';
import { type Caster, createCaster, formatGga, validFrames } from '../src/index.ts';
import { Peer, roverRequest } from './support/client.ts';
import { ManualClock } from './support/clock.ts';
import { FakePorts } from './support/fakes.ts';
import { until } from './support/wait.ts';

/**
 * The integrity monitor (issue 33) watching real captures replayed as base stations, each epoch sent when the
 * caster's clock reads its GNSS time (plus a little), as a live receiver would.
 */
const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
});

/** The repository's captures (the gnss workspace keeps them all, with their attribution). */
const fixture = (name: string) => readFileSync(new URL(`../../gnss/test/fixtures/${name}`, import.meta.url));

const CAPTURES: Array<[string, string]> = [
  ['oem729_hiroshima_20221213_msm7_alleph.rtcm3', '2022-12-13T01:09:00Z'],
  ['GMSD7_20121014_netr9_msm7_weekrollover.rtcm3', '2012-10-13T23:59:00Z'],
  ['aamakinen_20260705_msm7_glomsm4.rtcm3', '2026-07-05T12:00:00Z'],
];

/** UTC (ms) of an epoch: its first GPS, Galileo or QZSS MSM's time of week, taken in the week around `near`. */
function epochUtc(frames: Buffer[], near: number): number | null {
  for (const f of frames) {
    const type = ((f[3] as number) << 4) | ((f[4] as number) >> 4);
    if (![1077, 1097, 1117, 1074, 1094, 1114].includes(type)) continue;
    const tow = getBitU(f, 48, 30) / 1000;
    return gpstToUtc(resolveTow(tow, utcToGpst(near)));
  }
  return null;
}

/** The 1005 frame re-encoded (with its CRC) with the position moved `eastM` metres east. */
function movedEast(frame: Buffer, eastM: number): Buffer {
  const arp = decodeStationPosition(frame) as [number, number, number];
  const lon = (ecefToGeodetic(arp).longitude * Math.PI) / 180;
  return encodeStationPosition([arp[0] - eastM * Math.sin(lon), arp[1] + eastM * Math.cos(lon), arp[2]]);
}

/** The frame with its last CRC byte changed. */
function damaged(frame: Buffer): Buffer {
  const copy = Buffer.from(frame);
  copy[copy.length - 1] = (copy[copy.length - 1] as number) ^ 0xff;
  return copy;
}

const typeOf = (f: Buffer) => ((f[3] as number) << 4) | ((f[4] as number) >> 4);

interface Setup {
  capture: string;
  near: string;
  /** A second station 10 km away, fed the same capture untouched. */
  second?: boolean;
  goodPeriodMs?: number;
}

async function setup(o: Setup) {
  const data = fixture(o.capture);
  const arp = validFrames(data)
    .filter((f) => typeOf(f) === 1005)
    .map(decodeStationPosition)[0];
  const at = arp ? ecefToGeodetic(arp) : { latitude: 50, longitude: 10, heightM: 0 };
  const ports = new FakePorts().addNetwork('net').addStation('BASE1', 'net', at.latitude, at.longitude);
  if (o.second) ports.addStation('BASE2', 'net', at.latitude + 0.09, at.longitude);
  const [first, second] = ports.stations;
  if (first) first.heightM = arp ? at.heightM : null;
  if (second) second.heightM = null;
  // The fakes' stations name a made-up receiver; these stations' catalogue entries state none, so the receiver and
  // antenna a capture sends are not compared here (integrity-descriptors.test.ts does that).
  for (const entry of ports.stations) entry.str.receiver = '';
  if (o.goodPeriodMs !== undefined)
    (ports.networks[0] as { integrity?: object }).integrity = { goodPeriodMs: o.goodPeriodMs };
  ports.accounts.push({ username: 'ann', password: 'pw', accountId: 'acc-ann', networks: ['net'], maxConnections: 3 });
  const epochs = epochsOf(data);
  const near = Date.parse(o.near);
  const start = epochUtc(epochs[0]?.frames ?? [], near) ?? near;
  const clock = new ManualClock(start);
  const caster: Caster = await createCaster({ ports, clock, directWrites: false });
  open.push(caster);
  const { port } = await caster.listen(0, '127.0.0.1');
  const peer = async () => {
    const p = await Peer.connect(port);
    open.push(p);
    return p;
  };
  const source = async (mount: string) => {
    const s = await peer();
    s.write(`SOURCE src-secret /${mount}\r\n\r\n`);
    await s.until((p) => p.text().includes('ICY 200 OK'), 'source accepted');
    return s;
  };
  const rover = async (mount: string, gga?: { latitude: number; longitude: number }) => {
    const r = await peer();
    r.write(roverRequest(mount, 1, ['ann', 'pw']));
    await r.until((p) => p.text().includes('ICY 200 OK'), 'rover accepted');
    if (gga) r.write(formatGga(gga));
    return r;
  };
  return { ports, clock, caster, epochs, at, source, rover, peer, near, start };
}

type Ctx = Awaited<ReturnType<typeof setup>>;

/**
 * Sends the epochs through `sources` (each with its own transform), one by one, at their time plus `delayMs`, and waits
 * until `watcher` (a rover on BASE1) received them, so each epoch is in before the clock moves on.
 */
async function replay(
  ctx: Ctx,
  feeds: Array<{ peer: Peer; change?: (frames: Buffer[], index: number) => Buffer[] }>,
  watcher: Peer,
  o: { delayMs?: number; from?: number; to?: number; onEpoch?: (index: number) => Promise<void> } = {},
) {
  const { clock, epochs } = ctx;
  let lastTime = ctx.start;
  for (let i = o.from ?? 0; i < (o.to ?? epochs.length); i++) {
    const epoch = epochs[i];
    if (!epoch) break;
    const time = epochUtc(epoch.frames, lastTime) ?? lastTime + epoch.delayMs;
    lastTime = time;
    const due = time + 200 + (o.delayMs ?? 0);
    if (due > clock.now()) await clock.advance(due - clock.now());
    const expected = watcher.length;
    let watched = 0;
    for (const [n, feed] of feeds.entries()) {
      const frames = feed.change ? feed.change(epoch.frames, i) : epoch.frames;
      const bytes = Buffer.concat(frames);
      if (n === 0) watched = Buffer.concat(validFrames(bytes)).length;
      if (bytes.length > 0) feed.peer.write(bytes);
    }
    await watcher.until((p) => p.length >= expected + watched, `epoch ${i}`);
    await o.onEpoch?.(i);
  }
}

const last = (ports: FakePorts, mount = 'BASE1') => ports.integrity.filter((u) => u.mountpoint === mount).at(-1);
const codes = (ports: FakePorts, mount = 'BASE1') => (last(ports, mount)?.reasons ?? []).map((r) => r.code).sort();

describe('integrity monitor', () => {
  it.each(CAPTURES)('raises no alarm over the whole of %s replayed as is', async (capture, near) => {
    const ctx = await setup({ capture, near });
    const base = await ctx.source('BASE1');
    const watcher = await ctx.rover('BASE1');
    await replay(ctx, [{ peer: base }], watcher);
    await ctx.clock.advance(1000);
    const alarms = ctx.ports.integrity.filter((u) => u.state !== 'ok' || u.reasons.length > 0);
    expect(alarms).toEqual([]);
    expect(ctx.ports.integrity.length).toBeGreaterThan(0);
  });

  it('fails a station whose 1005 moves 5 cm within 2 epochs, moves the nearest-station rover, keeps serving the mountpoint and returns after the good period', async () => {
    const ctx = await setup({
      capture: CAPTURES[0]?.[0] as string,
      near: CAPTURES[0]?.[1] as string,
      second: true,
      goodPeriodMs: 5000,
    });
    const base1 = await ctx.source('BASE1');
    const base2 = await ctx.source('BASE2');
    const watcher = await ctx.rover('BASE1');
    const nearRover = await ctx.rover('NET_NEAR', { latitude: ctx.at.latitude, longitude: ctx.at.longitude });
    const served = async () => {
      const { nodes } = await ctx.caster.live({ sessions: { all: true } });
      return nodes[0]?.sessions.find((s) => s.mountpoint === 'NET_NEAR')?.servedStation ?? null;
    };
    const MOVE_FROM = 15;
    const MOVE_TO = 35;
    const seen: Record<'movedAt' | 'failedAt' | 'returnedAt', number | null> = {
      movedAt: null,
      failedAt: null,
      returnedAt: null,
    };
    await replay(
      ctx,
      [
        {
          peer: base1,
          change: (frames, i) =>
            i >= MOVE_FROM && i < MOVE_TO ? frames.map((f) => (typeOf(f) === 1005 ? movedEast(f, 0.05) : f)) : frames,
        },
        { peer: base2 },
      ],
      watcher,
      {
        onEpoch: async (i) => {
          if (i === 3) await until(async () => (await served()) === 'BASE1', 'the rover on BASE1');
          if (seen.movedAt === null && i >= MOVE_FROM) {
            const epoch = ctx.epochs[i]?.frames ?? [];
            if (epoch.some((f) => typeOf(f) === 1005)) seen.movedAt = i;
          }
          if (seen.failedAt === null && last(ctx.ports)?.state === 'failing') seen.failedAt = i;
          if (seen.returnedAt === null && seen.failedAt !== null && last(ctx.ports)?.excluded === false)
            seen.returnedAt = i;
        },
      },
    );
    expect(seen.movedAt).not.toBeNull();
    expect(seen.failedAt).not.toBeNull();
    expect((seen.failedAt as number) - (seen.movedAt as number)).toBeLessThanOrEqual(1);
    const failing = ctx.ports.integrity.find((u) => u.mountpoint === 'BASE1' && u.state === 'failing');
    expect(failing?.excluded).toBe(true);
    expect(failing?.reasons.map((r) => r.code)).toEqual(['position_moved']);
    expect(failing?.reasons[0]?.message).toMatch(/moved 5\.0 cm horizontally/);
    expect(nearRover.closed).toBe(false);
    expect(seen.returnedAt).not.toBeNull();
    // Back in the choice only after 5 s of good data following the position's return at MOVE_TO.
    expect(seen.returnedAt as number).toBeGreaterThanOrEqual(MOVE_TO + 4);
    expect(await served()).toBe('BASE1');
    // The second station sends the first one's position 10 km from its own place in the catalogue: a warning only.
    expect(codes(ctx.ports, 'BASE2')).toEqual(['position_mismatch']);
    expect(ctx.ports.integrity.some((u) => u.mountpoint === 'BASE2' && u.excluded)).toBe(false);
  });

  it('while failing: the nearest-station rover is on the next station, the own mountpoint serves, the sourcetable says why', async () => {
    const ctx = await setup({ capture: CAPTURES[0]?.[0] as string, near: CAPTURES[0]?.[1] as string, second: true });
    const base1 = await ctx.source('BASE1');
    const base2 = await ctx.source('BASE2');
    const watcher = await ctx.rover('BASE1');
    const nearRover = await ctx.rover('NET_NEAR', { latitude: ctx.at.latitude, longitude: ctx.at.longitude });
    await replay(
      ctx,
      [
        {
          peer: base1,
          change: (frames, i) => (i >= 10 ? frames.map((f) => (typeOf(f) === 1005 ? movedEast(f, 0.05) : f)) : frames),
        },
        { peer: base2 },
      ],
      watcher,
      { to: 20 },
    );
    const { nodes } = await ctx.caster.live({ sessions: { all: true } });
    expect(nodes[0]?.sessions.find((s) => s.mountpoint === 'NET_NEAR')?.servedStation).toBe('BASE2');
    expect(nearRover.closed).toBe(false);
    const before = watcher.length;
    await replay(
      ctx,
      [
        { peer: base1, change: (frames) => frames.map((f) => (typeOf(f) === 1005 ? movedEast(f, 0.05) : f)) },
        { peer: base2 },
      ],
      watcher,
      { from: 20, to: 22 },
    );
    expect(watcher.length).toBeGreaterThan(before);
    const table = await ctx.peer();
    table.write(roverRequest('', 1));
    const text = await table.closedWith('sourcetable');
    const str = text
      .split('\r\n')
      .find((l) => l.startsWith('STR;BASE1;'))
      ?.split(';');
    expect(str?.at(-1)).toBe('integrity failing: position_moved');
    expect(
      text
        .split('\r\n')
        .find((l) => l.startsWith('STR;BASE2;'))
        ?.split(';')
        .at(-1),
    ).toBe('none');
  });

  const faults: Array<[string, string, (frames: Buffer[]) => Buffer[], number]> = [
    [
      'dropping the GLONASS MSM frames',
      'constellation_missing',
      (frames) => frames.filter((f) => typeOf(f) !== 1087),
      0,
    ],
    ['stopping 1005', 'message_missing', (frames) => frames.filter((f) => typeOf(f) !== 1005), 0],
    ['delaying the frames by 3 s', 'late', (frames) => frames, 3000],
    [
      'a damaged copy beside each 1033',
      'crc_errors',
      (frames) => frames.flatMap((f) => (typeOf(f) === 1033 ? [damaged(f), f] : [f])),
      0,
    ],
  ];
  it.each(faults)('%s raises %s and nothing else', async (_, code, change, delayMs) => {
    const ctx = await setup({ capture: CAPTURES[0]?.[0] as string, near: CAPTURES[0]?.[1] as string });
    const base = await ctx.source('BASE1');
    const watcher = await ctx.rover('BASE1');
    await replay(ctx, [{ peer: base }], watcher, { to: 20 });
    expect(codes(ctx.ports)).toEqual([]);
    await replay(ctx, [{ peer: base, change }], watcher, { from: 20, delayMs });
    expect(codes(ctx.ports)).toEqual([code]);
    const reason = last(ctx.ports)?.reasons[0];
    expect(reason?.message.length).toBeGreaterThan(20);
    expect(reason?.since.getTime()).toBeGreaterThan(ctx.start);
  });
});
