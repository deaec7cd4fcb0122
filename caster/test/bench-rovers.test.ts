import { afterEach, describe, expect, it } from 'vitest';
import {
  cLoader,
  compileRoverLoad,
  type Loader,
  type LoaderOptions,
  monotonicMs,
  nodeLoader,
} from '../bench/rover-loaders.ts';
import { type Caster, createCaster, encodeFrame } from '../src/index.ts';
import { Peer } from './support/client.ts';
import { FakePorts } from './support/fakes.ts';
import { until } from './support/wait.ts';

/**
 * The figures in docs/performance.md are only as good as the load generators that measure them: each must read
 * every frame of NTRIP 1 and NTRIP 2 rovers and take the delay on the clock the bench stamps frames with.
 */
const open: Array<{ close(): unknown }> = [];
const loaders: Loader[] = [];
afterEach(async () => {
  for (const l of loaders.splice(0)) l.stop();
  for (const c of open.splice(0).reverse()) await c.close();
});

function stampedFrame(bytes: number, sentAt: number): Buffer {
  const payload = Buffer.alloc(bytes - 6);
  // Message type 1077, as the bench's frames: the load generators time only those.
  payload[0] = 0x43;
  payload[1] = 0x50;
  payload.writeDoubleLE(sentAt, 2);
  return encodeFrame(payload);
}

const generators: Array<[string, (o: LoaderOptions) => Loader]> = [
  ['C', (o) => cLoader(compileRoverLoad(), o)],
  ['Node', nodeLoader],
];

describe('bench load generators', () => {
  it.each(generators)('%s: every frame to every rover, delays on the bench clock', async (_, start) => {
    const ports = new FakePorts().addNetwork('bench').addStation('BENCH', 'bench', 52, 5, 'bench');
    ports.accounts.push({
      username: 'bench',
      password: 'bench',
      accountId: 'bench',
      networks: ['bench'],
      maxConnections: 100,
    });
    const caster: Caster = await createCaster({ ports });
    open.push(caster);
    const { port } = await caster.listen(0, '127.0.0.1');
    const source = await Peer.connect(port);
    open.push(source);
    source.write('SOURCE bench /BENCH\r\nSource-Agent: NTRIP test\r\n\r\n');
    await source.until((p) => p.text().startsWith('ICY 200 OK'), 'source accepted');

    const rovers = 6;
    const loader = start({ port, count: rovers, first: 0, spin: false });
    loaders.push(loader);
    await loader.connected;
    await loader.measure();
    // Large frames too, so NTRIP 2 chunks and reads cut frames apart.
    const sizes = [33, 933, 1029, 33, 933, 1029, 33, 933];
    const stamps: number[] = [];
    for (const size of sizes) {
      const sentAt = monotonicMs();
      stamps.push(sentAt);
      source.write(stampedFrame(size, sentAt));
      // One frame at a time, so each delay is that frame's own and not the queue behind it.
      const reached = rovers * stamps.length;
      await until(async () => (await loader.report()).delays.length >= reached, `frame ${stamps.length}`, 10_000);
    }
    const expected = rovers * sizes.length;
    const report = await loader.report();

    expect(report.frames).toBe(expected);
    expect(report.disconnected).toBe(0);
    // Every rover reported every frame once, by the send time stamped in it.
    expect([...report.sentAt].sort((a, b) => a - b)).toEqual(stamps.flatMap((t) => Array(rovers).fill(t)));
    for (const delay of report.delays) {
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(5_000);
    }
  });

  it('C: a storm opens every rover at its rate and times each answer; NTRIP 2 only reads chunked streams', async () => {
    const ports = new FakePorts().addNetwork('bench').addStation('BENCH', 'bench', 52, 5, 'bench');
    ports.accounts.push({
      username: 'bench',
      password: 'bench',
      accountId: 'bench',
      networks: ['bench'],
      maxConnections: 100,
    });
    const caster: Caster = await createCaster({ ports });
    open.push(caster);
    const { port } = await caster.listen(0, '127.0.0.1');
    const source = await Peer.connect(port);
    open.push(source);
    source.write('SOURCE bench /BENCH\r\nSource-Agent: NTRIP test\r\n\r\n');
    await source.until((p) => p.text().startsWith('ICY 200 OK'), 'source accepted');

    const binary = compileRoverLoad();
    // Taken before the load process starts: it may open its first rover before this process runs again.
    const began = monotonicMs();
    const storm = cLoader(binary, { port, count: 40, first: 0, spin: false, mode: 'v2', rate: 400 });
    loaders.push(storm);
    await storm.connected;
    const { openedAt, toAnswer } = await storm.opens();
    expect(openedAt.length).toBe(40);
    // 400 a second: the last rover opened about 100 ms after the first, not all at once.
    expect((openedAt[39] as number) - (openedAt[0] as number)).toBeGreaterThan(80);
    expect(openedAt[0]).toBeGreaterThanOrEqual(began - 1);
    for (const t of toAnswer) expect(t).toBeGreaterThanOrEqual(0);
    await storm.measure();
    const sentAt = monotonicMs();
    source.write(stampedFrame(933, sentAt));
    await until(async () => (await storm.report()).delays.length >= 40, 'the frame to every NTRIP 2 rover', 10_000);
    expect([...(await storm.report()).sentAt]).toEqual(Array(40).fill(sentAt));
  });
});
