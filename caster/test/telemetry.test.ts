import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type Caster,
  type CasterLimits,
  connectTelemetryClient,
  createCaster,
  distanceKm,
  encodeFrame,
  parseGgaFix,
} from '../src/index.ts';
import { Peer, roverRequest } from './support/client.ts';
import { ManualClock } from './support/clock.ts';
import { FakePorts } from './support/fakes.ts';
import { until } from './support/wait.ts';

const NATS_URL = process.env.CASTER_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
const silent = { info() {}, warn() {}, error() {} };

const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
});

/** A GGA sentence as a receiver sends it, with fix quality and age of corrections, and a valid checksum. */
function gga(latitude: number, longitude: number, quality: number, age = '') {
  const dm = (value: number, digits: number) => {
    const deg = Math.floor(Math.abs(value));
    return `${String(deg).padStart(digits, '0')}${((Math.abs(value) - deg) * 60).toFixed(5).padStart(8, '0')}`;
  };
  const body = [
    'GNGGA',
    '101500.00',
    dm(latitude, 2),
    latitude >= 0 ? 'N' : 'S',
    dm(longitude, 3),
    longitude >= 0 ? 'E' : 'W',
    String(quality),
    '14',
    '0.7',
    '12.3',
    'M',
    '43.1',
    'M',
    age,
    age ? '0001' : '',
  ].join(',');
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum ^= body.charCodeAt(i);
  return `$${body}*${sum.toString(16).toUpperCase().padStart(2, '0')}\r\n`;
}

function ports() {
  const p = new FakePorts().addNetwork('nl').addStation('AMS1', 'nl', 52.37, 4.9).addStation('UTR1', 'nl', 52.09, 5.12);
  p.accounts.push(
    { username: 'alice', password: 'alice-pw', accountId: 'acc-alice', networks: ['nl'], maxConnections: 5 },
    { username: 'bob', password: 'bob-pw', accountId: 'acc-bob', networks: ['nl'], maxConnections: 5 },
  );
  return p;
}

async function start(
  options: { limits?: Partial<CasterLimits>; prefix?: string; nodeId?: string; clock?: ManualClock } = {},
) {
  const p = ports();
  const caster: Caster = await createCaster({
    ports: p,
    logger: silent,
    clock: options.clock,
    limits: { statusIntervalMs: 60_000, ...options.limits },
    ...(options.prefix && { busUrl: NATS_URL, busPrefix: options.prefix, nodeId: options.nodeId }),
  });
  open.push(caster);
  const { port } = await caster.listen(0, '127.0.0.1');
  const peer = async () => {
    const x = await Peer.connect(port);
    open.push(x);
    return x;
  };
  return { caster, ports: p, peer };
}

const frame = (n: number) => encodeFrame(Buffer.from([0x43, 0x50, n, 0, 0, 0]));

describe('GGA fix quality', () => {
  it('reads the quality, satellites and age of corrections, also before a fix', () => {
    expect(parseGgaFix(gga(52.1, 4.9, 4, '1.2'))).toEqual({ quality: 'fixed', satellites: 14, ageOfCorrections: 1.2 });
    expect(parseGgaFix(gga(52.1, 4.9, 5, '0.8'))?.quality).toBe('float');
    expect(parseGgaFix(gga(52.1, 4.9, 2))).toEqual({ quality: 'dgnss', satellites: 14, ageOfCorrections: null });
    expect(parseGgaFix(gga(52.1, 4.9, 1))?.quality).toBe('single');
    expect(parseGgaFix('$GPGGA,,,,,,0,,,,,,,,*66')?.quality).toBe('no_fix');
    expect(parseGgaFix(gga(52.1, 4.9, 6))?.quality).toBe('other');
    expect(parseGgaFix(gga(52.1, 4.9, 4).replace('*', '0*'))).toBeNull();
    expect(parseGgaFix('$GNRMC,101500.00,A,5206.00000,N,00454.00000,E,0.0,,241126,,,A*6B')).toBeNull();
  });
});

describe('station status from data', () => {
  it('is online only once valid frames arrive, and offline when they stop for the online window', async () => {
    const { caster, ports: p, peer } = await start({ limits: { stationOnlineWindowMs: 400 } });
    const statuses = () => p.statuses.filter((s) => s.mountpoint === 'AMS1').map((s) => s.online);
    const source = await peer();
    source.write('SOURCE src-secret /AMS1\r\n\r\n');
    await source.until((x) => x.text().includes('ICY 200 OK'), 'source login');
    // The login alone does not make it online, and noise ahead of the first frame does not either.
    expect(statuses()).toEqual([]);
    source.write(Buffer.from('not a frame, only noise'.repeat(20)));
    source.write(frame(1));
    await until(() => statuses().length === 1, 'online after the first frame');
    expect(statuses()).toEqual([true]);

    // Still connected, nothing valid any more: offline once the window has passed, with the last frame's time.
    source.write(Buffer.from('garbage'));
    await until(() => statuses().length === 2, 'offline after the window', 3000);
    expect(statuses()).toEqual([true, false]);
    expect(p.statuses.at(-1)?.lastDataAt).toBeInstanceOf(Date);
    const [live] = (await caster.live({ sources: true })).nodes;
    expect(live?.sources).toEqual([
      expect.objectContaining({ mountpoint: 'AMS1', kind: 'push', address: '127.0.0.1', receiving: false }),
    ]);

    source.write(frame(2));
    await until(() => statuses().length === 3, 'online again');
    source.close();
    await until(() => statuses().length === 4, 'offline when the source leaves');
    expect(statuses()).toEqual([true, false, true, false]);
  });

  it('reports a live source with its address, rate, last frame and since when', async () => {
    const { caster, peer } = await start();
    const source = await peer();
    source.write('SOURCE src-secret /UTR1\r\n\r\n');
    await source.until((x) => x.text().includes('ICY 200 OK'), 'source login');
    for (let i = 0; i < 5; i++) source.write(frame(i));
    await until(async () => (await caster.live({ sources: true })).nodes[0]?.sources[0]?.receiving, 'receiving');
    const { nodes } = await caster.live({ sources: true });
    const utr = nodes[0]?.sources[0];
    expect(utr).toMatchObject({ mountpoint: 'UTR1', address: '127.0.0.1', receiving: true });
    expect(utr?.bytesPerSecond).toBeGreaterThan(0);
    expect(Date.parse(utr?.lastFrameAt ?? '')).toBeGreaterThanOrEqual(Date.parse(utr?.connectedAt ?? ''));
  });
});

describe('live sessions', () => {
  it('shows who is connected, served by which station, how far, and the fix the rover reports', async () => {
    const clock = new ManualClock();
    const { caster, ports: p, peer } = await start({ clock });
    const source = await peer();
    source.write('SOURCE src-secret /AMS1\r\n\r\n');
    await source.until((x) => x.text().includes('ICY 200 OK'), 'source login');
    source.write(frame(1));

    const fixed = await peer();
    fixed.write(roverRequest('UTR1', 1, ['alice', 'alice-pw']));
    const near = await peer();
    near.write(roverRequest('NL_NEAR', 2, ['bob', 'bob-pw']));
    await near.until((x) => x.text().includes('\r\n\r\n'), 'near rover accepted');
    near.write(gga(52.35, 4.92, 5, '1.4'));
    await until(
      async () => (await caster.live({ sessions: { accountIds: ['acc-bob'] } })).nodes[0]?.sessions[0]?.fix !== null,
      'the GGA to show',
    );
    source.write(frame(2));
    await near.until((x) => x.body().length > 0, 'a frame of the served station');
    const { nodes } = await caster.live({ sessions: { all: true } });
    const sessions = nodes[0]?.sessions ?? [];
    expect(sessions).toHaveLength(2);
    const nearSession = sessions.find((s) => s.accountId === 'acc-bob');
    expect(nearSession).toMatchObject({
      mountpoint: 'NL_NEAR',
      servedStation: 'AMS1',
      userAgent: 'NTRIP test-rover',
      ntripVersion: 2,
      remoteAddress: '127.0.0.1',
      fix: { quality: 'float', ageOfCorrections: 1.4, satellites: 14 },
    });
    expect(nearSession?.distanceKm).toBeCloseTo(
      distanceKm({ latitude: 52.35, longitude: 4.92 }, { latitude: 52.37, longitude: 4.9 }),
      2,
    );
    expect(nearSession?.bytesSent).toBeGreaterThan(0);
    expect(sessions.find((s) => s.accountId === 'acc-alice')).toMatchObject({
      mountpoint: 'UTR1',
      servedStation: 'UTR1',
      distanceKm: null,
      fix: null,
    });
    const onlyAlice = await caster.live({ sessions: { accountIds: ['acc-alice'] } });
    expect(onlyAlice.nodes[0]?.sessions.map((s) => s.accountId)).toEqual(['acc-alice']);

    // Fixed for a while, then float: the ended session keeps the station, the distance and the shares.
    // Each line is awaited as read (its report carries the caster's time) before time moves on.
    const reported = (quality: string) =>
      until(async () => {
        const fix = (await caster.live({ sessions: { accountIds: ['acc-bob'] } })).nodes[0]?.sessions[0]?.fix;
        return fix?.quality === quality && fix.at === new Date(clock.now()).toISOString();
      }, `the rover's ${quality} fix`);
    near.write(gga(52.35, 4.92, 4, '0.9'));
    await reported('fixed');
    await clock.advance(300);
    near.write(gga(52.35, 4.92, 5, '1.1'));
    await reported('float');
    await clock.advance(100);
    near.write(gga(52.35, 4.92, 5, '1.1'));
    await reported('float');
    near.close();
    await caster.close();
    const ended = p.sessions.find((s) => s.accountId === 'acc-bob');
    expect(ended).toMatchObject({ servedStation: 'AMS1', userAgent: 'NTRIP test-rover' });
    expect(ended?.distanceKm).toBeCloseTo(nearSession?.distanceKm ?? 0, 3);
    expect(ended?.fixedShare).toBeCloseTo(0.75, 4);
    expect((ended?.fixedShare ?? 0) + (ended?.floatShare ?? 0)).toBeCloseTo(1, 5);
  });
});

describe('live sessions across caster nodes on NATS', () => {
  it("lists every node's rovers, from a node and from an API process with only a bus connection", async () => {
    const prefix = `test-${randomUUID()}`;
    const a = await start({ prefix, nodeId: 'node-a', limits: { announceIntervalMs: 200 } });
    const b = await start({ prefix, nodeId: 'node-b', limits: { announceIntervalMs: 200 } });
    const onA = await a.peer();
    onA.write(roverRequest('AMS1', 1, ['alice', 'alice-pw']));
    const onB = await b.peer();
    onB.write(roverRequest('UTR1', 2, ['alice', 'alice-pw']));
    await onA.until((x) => x.text().includes('\r\n\r\n'), 'rover on A');
    await onB.until((x) => x.text().includes('\r\n\r\n'), 'rover on B');

    const api = await connectTelemetryClient(NATS_URL, prefix, silent, 200);
    open.push(api);
    const byNode = async (live: () => Promise<{ nodes: Array<{ node: string; sessions: unknown[] }> }>) =>
      Object.fromEntries((await live()).nodes.map((n) => [n.node, n.sessions.length]));
    await until(async () => {
      const seen = await byNode(() => a.caster.live({ sessions: { accountIds: ['acc-alice'] } }));
      return seen['node-a'] === 1 && seen['node-b'] === 1;
    }, 'node A to list both rovers');
    await until(async () => {
      const seen = await byNode(() => api.live({ sessions: { all: true } }));
      return seen['node-a'] === 1 && seen['node-b'] === 1;
    }, 'the API process to list both rovers');
    const fromApi = await api.live({ sessions: { all: true } });
    expect(fromApi.complete).toBe(true);
    const sessions = fromApi.nodes.flatMap((n) => n.sessions);
    expect(sessions.map((s) => `${s.node}:${s.mountpoint}`).sort()).toEqual(['node-a:AMS1', 'node-b:UTR1']);
  });
});
