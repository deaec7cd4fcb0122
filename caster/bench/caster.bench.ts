import { execFileSync, fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeStationPosition, frameMessageType, geodeticToEcef } from '@portal/gnss';
import { generate } from 'selfsigned';
import { CASTER_NODE_FLAGS, encodeFrame, validFrames } from '../src/index.ts';
import {
  cLoader,
  compileRoverLoad,
  type Loader,
  type LoaderOptions,
  type LoadReport,
  monotonicMs,
  nextMessage,
  nodeLoader,
} from './rover-loaders.ts';

/**
 * `npm run bench:caster`: the caster in one process, the rovers in separate load processes, one SOURCE on one
 * mountpoint sending frames whose payload carries the send time. Prints the added latency (receive time in a load
 * process minus the stamped send time), the caster's CPU, its memory baseline and its RSS per rover; the storm
 * scenario opens 10,000 more rovers at 20,000 a second into the live mountpoint and prints their time to the
 * stream's OK, the CPU per connection and the latency of the rovers already connected meanwhile.
 *
 * BENCH_OTHER_CASTER runs the same scenarios against another caster too, alternating, and prints the ratios (ours ÷
 * other): a shell command that starts it in the foreground listening on 127.0.0.1:$BENCH_PORT (the bench picks the
 * port), with a mountpoint BENCH whose source logs in with the password `bench`, rovers as bench:bench. Its memory
 * and CPU are read from /proc for the command's process, so the command should `exec` the caster.
 *
 * BENCH_SECONDS (measuring window, 15), BENCH_RUNS (runs per caster and scenario: 3 with another caster, else 1),
 * BENCH_LOADERS (load processes: 1, or 4 for Node rovers not isolated), BENCH_PRIORITY, BENCH_ISOLATE, BENCH_DIRECT
 * (0: our caster writes through Node instead of io_uring), BENCH_FANOUT_THREADS (threads sharing each frame's sends
 * in our caster, its default otherwise), BENCH_NATIVE_IO (0: our plain port served through Node instead of the native
 * I/O thread, ADR 0095), BENCH_ONLY (scenarios by name, e.g. `1000@5,storm`),
 * BENCH_ROVERS (`c`, the default, or `node`: which load generator; the storm and single-version scenarios need `c`)
 * and BENCH_ARCHIVE (`off`, the default, `on`, or `both`: each scenario without and then with our caster archiving
 * the mountpoint's frames to a temporary folder), and BENCH_STATIONS (more stations, without rovers, each fed a
 * 900-byte frame a second by its own source, so that archiving carries a network's load) and BENCH_INTEGRITY (`on`,
 * the default, `off`, or `both`: each run of ours without and with the station integrity monitor, in alternating
 * order, then the medians of the fan-out p99 side by side; issue 33) and BENCH_STORM (the storm's `rovers@rate`,
 * `10000@20000`) and BENCH_TLS_ROVERS (the tls@5 scenario's plain rovers and as many over TLS, 1000) adjust it. The
 * source also sends its reference
 * position (1005) once a second, as a base station does, so the monitor decodes it where it is on.
 */

interface Scenario {
  name: string;
  rovers: number;
  frameBytes: number;
  hz: number;
  mode: 'mixed' | 'v1' | 'v2';
  /** More rovers opened at `rate` a second once the others are connected and measured. */
  storm?: { rovers: number; rate: number };
  /**
   * The source sends a real station's frames (MSM7 of six constellations, ephemerides, 1005/1033; `CAPTURE`), about
   * one epoch per tick, instead of stamped frames: the rovers measure no latency, the caster's fan-out p99 is the
   * figure. With `profiles` the rovers get four outputs in turn (issue 36): as-sent, MSM4, legacy, and GPS+GLONASS.
   */
  capture?: { profiles: boolean };
  /**
   * As many rovers again over TLS (issue 38), in the same run as the plain ones: the Node load generator, since the
   * C one speaks no TLS. Ours only.
   */
  tls?: number;
}

/** Rovers half NTRIP 1, half NTRIP 2 (named rovers@hz), then the comparison's scenarios (issue 35). */
const SCENARIOS: Scenario[] = [
  { name: '1000@1', rovers: 1000, frameBytes: 933, hz: 1, mode: 'mixed' },
  { name: '5000@1', rovers: 5000, frameBytes: 933, hz: 1, mode: 'mixed' },
  { name: '10000@1', rovers: 10000, frameBytes: 933, hz: 1, mode: 'mixed' },
  { name: '1000@5', rovers: 1000, frameBytes: 33, hz: 5, mode: 'mixed' },
  { name: 'v1-1000@5', rovers: 1000, frameBytes: 33, hz: 5, mode: 'v1' },
  { name: 'v1-10000@1', rovers: 10000, frameBytes: 933, hz: 1, mode: 'v1' },
  { name: 'v2-1000@5', rovers: 1000, frameBytes: 33, hz: 5, mode: 'v2' },
  { name: 'storm', rovers: 1000, frameBytes: 33, hz: 5, mode: 'v1', storm: stormSize() },
  // Issue 38: BENCH_TLS_ROVERS (1000) plain rovers and as many over TLS on one mountpoint, each group's latency apart.
  ...[Number(process.env.BENCH_TLS_ROVERS ?? 1000)].map(
    (n): Scenario => ({ name: 'tls@5', rovers: n, frameBytes: 33, hz: 5, mode: 'mixed', tls: n }),
  ),
  // Issue 36: BENCH_RTCM_ROVERS (1000) rovers on one station, all as-sent, then split over four profiles.
  ...(['as-sent', 'profiles'] as const).map(
    (kind): Scenario => ({
      name: `${kind}-capture`,
      rovers: Number(process.env.BENCH_RTCM_ROVERS ?? 1000),
      frameBytes: 0,
      hz: 1,
      mode: 'mixed',
      capture: { profiles: kind === 'profiles' },
    }),
  ),
];
/** BENCH_STORM (`rovers@rate`, default `10000@20000`): a smaller storm for a profile or a shared machine. */
function stormSize(): { rovers: number; rate: number } {
  const [rovers, rate] = (process.env.BENCH_STORM ?? '10000@20000').split('@').map(Number);
  if (!rovers || !rate) throw new Error('BENCH_STORM: rovers@rate, e.g. 2000@20000');
  return { rovers, rate };
}
const ONLY = process.env.BENCH_ONLY?.split(',');
const chosen = SCENARIOS.filter((s) => !ONLY || ONLY.includes(s.name));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const OTHER = process.env.BENCH_OTHER_CASTER;
const RUNS = Number(process.env.BENCH_RUNS ?? (OTHER ? 3 : 1));
/**
 * BENCH_ISOLATE=1 gives the caster a core of its own and the rovers the other, as on separate machines: on
 * loopback every send runs the receiving side inside the sender's system call, including waking a rover process
 * that sleeps in epoll, which a network card never asks of the caster's core. So the rovers' side is pinned to
 * the last core, and its load process keeps its event loop turning instead of sleeping.
 */
const ISOLATE = Boolean(process.env.BENCH_ISOLATE);

const lastCore = os.availableParallelism() - 1;
if (ISOLATE) execFileSync('taskset', ['-pc', String(lastCore), String(process.pid)], { stdio: 'ignore' });
const WARMUP_MS = 3000;
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
/** The C load generator unless BENCH_ROVERS=node: on two shared cores, the rovers' own cost shows as latency. */
const ROVERS = process.env.BENCH_ROVERS === 'node' ? 'node' : 'c';
const roverBinary = ROVERS === 'c' ? compileRoverLoad() : '';
/**
 * One C process reads all the rovers: while it is awake reading, the caster's next sends find it running instead of
 * waking it again, which on loopback the caster's core would pay for. Node needs four to keep up.
 */
const LOADERS = Number(process.env.BENCH_LOADERS ?? (ISOLATE || ROVERS === 'c' ? 1 : 4));
const ARCHIVE = process.env.BENCH_ARCHIVE ?? 'off';
if (!['off', 'on', 'both'].includes(ARCHIVE)) throw new Error('BENCH_ARCHIVE: off, on or both');
const ARCHIVE_MODES = ARCHIVE === 'both' ? [false, true] : [ARCHIVE === 'on'];
const INTEGRITY = process.env.BENCH_INTEGRITY ?? 'on';
if (!['off', 'on', 'both'].includes(INTEGRITY)) throw new Error('BENCH_INTEGRITY: off, on or both');
const INTEGRITY_MODES = INTEGRITY === 'both' ? [false, true] : [INTEGRITY === 'on'];
/** The mountpoint's reference position (1005), sent once a second: 52° N 5° E, 10 m. */
const POSITION_FRAME = encodeStationPosition(geodeticToEcef(52, 5, 10));
const STATIONS = Number(process.env.BENCH_STATIONS ?? 0);
/** The capture scenarios' station: a NovAtel OEM729's MSM7 of GPS, GLONASS, Galileo, QZSS, BeiDou and NavIC. */
const CAPTURE = validFrames(readFileSync(here('../test/fixtures/oem729_hiroshima_20221213_msm7_alleph.rtcm3'))).filter(
  (f) => frameMessageType(f) !== 1005,
);
/** Its 769 frames span about 60 epochs. */
const CAPTURE_PER_TICK = Math.ceil(CAPTURE.length / 60);
/** BENCH_PROFILE: a folder where each run of our caster leaves a CPU profile (`.cpuprofile`, for DevTools), sampled every 100 µs. */
const PROFILE = process.env.BENCH_PROFILE;

interface CasterStats {
  rss: number;
  heapUsed: number;
  cpu: NodeJS.CpuUsage;
  /** The main thread's own CPU time (the relay's), without the archive's thread. */
  mainCpuMicros: number;
  /** Bytes the main thread allocated since the previous stats request. */
  allocated: number;
  at: number;
  rovers: number;
  fanOutMs: { frames: number; p50: number; p99: number; max: number };
  directWrites: boolean;
  /** Threads sharing each frame's io_uring sends (BENCH_FANOUT_THREADS, else the caster's default). */
  fanOutThreads: number;
  /** Pauses of the caster's garbage collections since the previous stats request. */
  gcPausesMs: number[];
  /** Rovers the native port answered itself so far (ADR 0100). */
  nativeLogins: number;
  /** CPU time (µs) so far of the native port's I/O thread and of the fan-out's helper threads. */
  threadsCpuMicros: { io: number; fanOut: number };
}

/**
 * BENCH_PRIORITY (a nice value, e.g. -5; needs root for negative values) gives the bench's processes precedence
 * over other work on a shared machine, so the figures show the caster rather than the queue for a core.
 */
const PRIORITY = process.env.BENCH_PRIORITY === undefined ? undefined : Number(process.env.BENCH_PRIORITY);
if (PRIORITY !== undefined) os.setPriority(PRIORITY);

/** The caster measured: ours, forked with its stats over IPC, or another one started by BENCH_OTHER_CASTER. */
interface CasterUnderTest {
  label: string;
  port: number;
  /** Ours with a certificate: its TLS port. */
  tlsPort?: number;
  pid: number;
  /** With `gc`, our caster collects garbage first (memory figures); never inside a measuring window. */
  stats(gc: boolean): Promise<Stats>;
  stop(): Promise<{ frames: number; dropped: number } | null>;
}

/** What both casters report; `ours` only ours (from inside the process). */
interface Stats {
  rss: number;
  cpuMicros: number;
  at: number;
  ours?: CasterStats;
}

/**
 * Ours with the Node options the server runs it with, and `--expose-gc`, so its memory figures are read after a
 * collection.
 */
async function ourCaster(
  archiveDir: string | undefined,
  integrity: boolean,
  profiles: boolean,
  tls?: { certFile: string; keyFile: string },
): Promise<CasterUnderTest> {
  const proc = fork(here('./caster-process.ts'), [], {
    execArgv: [
      '--import',
      'tsx',
      '--expose-gc',
      ...CASTER_NODE_FLAGS,
      ...(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE}`, '--cpu-prof-interval=100'] : []),
    ],
    stdio: 'inherit',
    env: {
      ...process.env,
      ...(archiveDir && { BENCH_ARCHIVE_DIR: archiveDir }),
      ...(!integrity && { BENCH_INTEGRITY_OFF: '1' }),
      ...(profiles && { BENCH_RTCM_PROFILES: '1' }),
      ...(tls && { BENCH_TLS_CERT: tls.certFile, BENCH_TLS_KEY: tls.keyFile }),
    },
  });
  const { port, tlsPort } = await nextMessage<{ port: number; tlsPort?: number }>(proc, 'ready');
  return {
    label: 'ours',
    port,
    tlsPort,
    pid: proc.pid as number,
    async stats(gc) {
      const reply = nextMessage<CasterStats>(proc, 'stats');
      proc.send({ type: 'stats', gc });
      const stats = await reply;
      return { rss: stats.rss, cpuMicros: stats.cpu.user + stats.cpu.system, at: stats.at, ours: stats };
    },
    async stop() {
      const stopped = nextMessage<{ archived: { frames: number; dropped: number } | null }>(proc, 'stopped');
      proc.send({ type: 'stop' });
      const { archived } = await stopped;
      await new Promise((r) => proc.once('exit', r));
      return archived;
    },
  };
}

/** A self-signed certificate for the TLS scenario's port; its rovers do not check it. */
async function benchCertificate(dir: string): Promise<{ certFile: string; keyFile: string }> {
  const day = 86_400_000;
  const made = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    notBeforeDate: new Date(Date.now() - day),
    notAfterDate: new Date(Date.now() + day),
  });
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  writeFileSync(certFile, made.cert);
  writeFileSync(keyFile, made.private, { mode: 0o600 });
  return { certFile, keyFile };
}

const TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100;

/** Resident memory and CPU time of a process from /proc, the way they are read for a caster we do not own. */
function procStats(pid: number): Stats {
  const status = readFileSync(`/proc/${pid}/status`, 'latin1');
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) * 1024;
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuMicros = ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS;
  return { rss, cpuMicros, at: monotonicMs() };
}

/**
 * A free port below the kernel's ephemeral range (from 32768 here), which is where the rovers' own ends come from,
 * and within a signed 16-bit number, as some casters read their port.
 */
async function freePort(): Promise<number> {
  for (;;) {
    const port = 20000 + Math.floor(Math.random() * 12000);
    const server = net.createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (free) {
      await new Promise((r) => server.close(r));
      return port;
    }
  }
}

/** BENCH_OTHER_CASTER's command, in a shell that `exec`s it, ready once its port takes a connection. */
async function otherCaster(command: string): Promise<CasterUnderTest> {
  const port = await freePort();
  const proc = spawn('sh', ['-c', `exec ${command}`], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, BENCH_PORT: String(port) },
  });
  const exited = new Promise((r) => proc.once('exit', r));
  const deadline = Date.now() + 15_000;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const probe = net.connect({ port, host: '127.0.0.1' }, () => {
        probe.destroy();
        resolve(true);
      });
      probe.once('error', () => resolve(false));
    });
    if (open) break;
    if (proc.exitCode !== null || Date.now() > deadline)
      throw new Error(`BENCH_OTHER_CASTER did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    label: 'other',
    port,
    pid: proc.pid as number,
    stats: async () => procStats(proc.pid as number),
    async stop() {
      proc.kill('SIGTERM');
      const killer = setTimeout(() => proc.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(killer);
      return null;
    },
  };
}

async function connectSource(port: number, mountpoint: string): Promise<net.Socket> {
  const source = net.connect({ port, host: '127.0.0.1' });
  source.setNoDelay(true);
  await new Promise<void>((resolve, reject) => {
    source.once('error', reject);
    source.on('connect', () => source.write(`SOURCE bench /${mountpoint}\r\nSource-Agent: NTRIP bench\r\n\r\n`));
    source.once('data', (d) => (d.toString().startsWith('ICY 200 OK') ? resolve() : reject(new Error(d.toString()))));
  });
  return source;
}

function frame(bytes: number, sentAt: number): Buffer {
  const payload = Buffer.alloc(bytes - 6);
  payload[0] = 0x43;
  payload[1] = 0x50;
  payload.writeDoubleLE(sentAt, 2);
  return encodeFrame(payload);
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

async function warmUp(port: number, count: number) {
  const auth = `Basic ${Buffer.from('bench:bench').toString('base64')}`;
  const sockets = await Promise.all(
    Array.from(
      { length: count },
      (_, i) =>
        new Promise<net.Socket>((resolve, reject) => {
          const socket = net.connect({ port, host: '127.0.0.1' }, () =>
            socket.write(
              i % 2
                ? `GET /BENCH HTTP/1.1\r\nNtrip-Version: Ntrip/2.0\r\nAuthorization: ${auth}\r\n\r\n`
                : `GET /BENCH HTTP/1.0\r\nAuthorization: ${auth}\r\n\r\n`,
            ),
          );
          socket.once('data', () => resolve(socket));
          socket.once('error', reject);
        }),
    ),
  );
  for (const socket of sockets) socket.destroy();
  await new Promise((r) => setTimeout(r, 500));
}

/** The frames whose send time lies in [from, to), as sorted delays. */
function delaysBetween(reports: LoadReport[], from: number, to: number): Float64Array {
  const samples = Float64Array.from(
    reports.flatMap((r) => [
      ...r.delays.filter((_, i) => (r.sentAt[i] as number) >= from && (r.sentAt[i] as number) < to),
    ]),
  );
  return samples.sort();
}

interface StormResult {
  rovers: number;
  okP50: number;
  okP99: number;
  /** Rovers reset before their answer, or without one when the storm was given up on (60 s). */
  unanswered: number;
  cpuPerConnectionMs: number;
  /** p99 of the rovers already connected, over the frames sent while the storm was opened and answered. */
  connectedP99: number;
  stormMs: number;
  /** Of the storm's rovers, those the native port answered itself (ours; ADR 0100). */
  answeredNatively: number | null;
  /** Ours: CPU per connection (ms) of the main thread, the native I/O thread and the fan-out helpers, relay's included. */
  threadsPerConnectionMs: { main: number; io: number; fanOut: number } | null;
}

async function run(s: Scenario, archiving: boolean, which: 'ours' | 'other', integrity = true) {
  const archiveDir = archiving ? mkdtempSync(join(os.tmpdir(), 'bench-archive-')) : undefined;
  const tlsDir = s.tls ? mkdtempSync(join(os.tmpdir(), 'bench-tls-')) : undefined;
  const tlsFiles = tlsDir ? await benchCertificate(tlsDir) : undefined;
  const caster =
    which === 'ours'
      ? await ourCaster(archiveDir, integrity, s.capture?.profiles ?? false, tlsFiles)
      : await otherCaster(OTHER as string);
  if (PRIORITY !== undefined) os.setPriority(caster.pid, PRIORITY);
  if (ISOLATE) {
    const casterCores = lastCore > 0 ? `0-${lastCore - 1}` : '0';
    execFileSync('taskset', ['-pc', casterCores, String(caster.pid)], { stdio: 'ignore' });
  }
  const { port } = caster;
  // The baseline is read after a first round of rovers came and went, so what the first connections cost once
  // (compiled code, buffer pools) does not count as per-rover memory.
  await warmUp(port, 200);
  await caster.stats(true);
  await new Promise((r) => setTimeout(r, 1000));
  const base = await caster.stats(true);

  const source = await connectSource(port, 'BENCH');
  const stations = which === 'ours' ? STATIONS : 0;
  const others = await Promise.all(Array.from({ length: stations }, (_, i) => connectSource(port, `ST${i}`)));
  // Each other station sends its frame once a second, the stations spread over the second.
  let nextOther = 0;
  const othersTimer = setInterval(() => {
    for (let n = 0; n < stations / 100; n++) others[nextOther++ % stations]?.write(frame(900, monotonicMs()));
  }, 10);
  const othersSent = () => nextOther;

  // Frames flow while the rovers connect, so the source is never dropped as silent. The window is a span of send
  // times: a frame counts when its stamp lies in it, however late it arrives, so none is lost at either edge.
  let windowStart = Number.POSITIVE_INFINITY;
  let windowEnd = Number.POSITIVE_INFINITY;
  const inWindow = (sentAt: number) => sentAt >= windowStart && sentAt < windowEnd;
  let sentInWindow = 0;
  let sent = 0;
  let captureAt = 0;
  const timer = setInterval(() => {
    if (s.capture) {
      // The capture over and over: the encoders see its epochs again, as after a station's restart.
      for (let n = 0; n < CAPTURE_PER_TICK; n++) source.write(CAPTURE[captureAt++ % CAPTURE.length] as Buffer);
      return;
    }
    const sentAt = monotonicMs();
    source.write(frame(s.frameBytes, sentAt));
    sent++;
    if (inWindow(sentAt)) sentInWindow++;
  }, 1000 / s.hz);
  // Not stamped (the load processes measure only the 1077 frames); the monitor decodes it whole.
  const positionTimer = setInterval(() => source.write(POSITION_FRAME), 1000);
  const loaders: Loader[] = [];
  const share = Math.ceil(s.rovers / LOADERS);
  for (let first = 0; first < s.rovers; first += share) {
    const options: LoaderOptions = {
      port,
      count: Math.min(share, s.rovers - first),
      first,
      spin: ISOLATE,
      priority: PRIORITY,
      mode: s.mode,
    };
    loaders.push(ROVERS === 'c' ? cLoader(roverBinary, options) : nodeLoader(options));
  }
  const tlsLoaders: Loader[] = [];
  if (s.tls) {
    if (caster.tlsPort === undefined) throw new Error(`${s.name}: the caster has no TLS port`);
    tlsLoaders.push(
      nodeLoader({ port: caster.tlsPort, count: s.tls, first: s.rovers, spin: ISOLATE, priority: PRIORITY, tls: true }),
    );
  }
  const allLoaders = [...loaders, ...tlsLoaders];
  const connectStart = Date.now();
  await Promise.all(allLoaders.map((l) => l.connected));
  const connectMs = Date.now() - connectStart;

  await new Promise((r) => setTimeout(r, WARMUP_MS));
  await Promise.all(allLoaders.map((l) => l.measure()));
  windowStart = monotonicMs();
  const before = await caster.stats(false);
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const after = await caster.stats(false);
  windowEnd = monotonicMs();
  // Time for the window's last frame to reach every rover; frames sent meanwhile are outside the window.
  await new Promise((r) => setTimeout(r, 500));
  const loadWallMicros = (monotonicMs() - windowStart) * 1000;
  const reports = await Promise.all(loaders.map((l) => l.report()));
  const tlsReports = await Promise.all(tlsLoaders.map((l) => l.report()));

  let storm: StormResult | null = null;
  let stormLoader: Loader | null = null;
  if (s.storm) {
    // The CPU the relay itself takes meanwhile, at the rate of the window before, is not the storm's.
    const relayMicrosPerMs = (after.cpuMicros - before.cpuMicros) / (after.at - before.at);
    await Promise.all(loaders.map((l) => l.measure()));
    const start = await caster.stats(false);
    const stormFrom = monotonicMs();
    stormLoader = cLoader(roverBinary, {
      port,
      count: s.storm.rovers,
      first: s.rovers,
      spin: false,
      priority: PRIORITY,
      mode: 'v1',
      rate: s.storm.rate,
    });
    await Promise.race([stormLoader.connected, new Promise((r) => setTimeout(r, 60_000))]);
    const stormTo = monotonicMs();
    const end = await caster.stats(false);
    await new Promise((r) => setTimeout(r, 500));
    const during = delaysBetween(await Promise.all(loaders.map((l) => l.report())), stormFrom, stormTo);
    const { toAnswer } = await stormLoader.opens();
    // A rover without an answer (reset, or still waiting when the storm was given up on) counts as never answered.
    const times = Float64Array.from(toAnswer, (t) => (t >= 0 ? t : Number.POSITIVE_INFINITY)).sort();
    const stormCpu = end.cpuMicros - start.cpuMicros - relayMicrosPerMs * (end.at - start.at);
    storm = {
      rovers: s.storm.rovers,
      okP50: percentile(times, 50),
      okP99: percentile(times, 99),
      unanswered: times.filter((t) => t === Number.POSITIVE_INFINITY).length,
      cpuPerConnectionMs: stormCpu / 1000 / s.storm.rovers,
      connectedP99: percentile(during, 99),
      stormMs: stormTo - stormFrom,
      answeredNatively: end.ours && start.ours ? end.ours.nativeLogins - start.ours.nativeLogins : null,
      threadsPerConnectionMs:
        end.ours && start.ours
          ? {
              main: (end.ours.mainCpuMicros - start.ours.mainCpuMicros) / 1000 / s.storm.rovers,
              io: (end.ours.threadsCpuMicros.io - start.ours.threadsCpuMicros.io) / 1000 / s.storm.rovers,
              fanOut: (end.ours.threadsCpuMicros.fanOut - start.ours.threadsCpuMicros.fanOut) / 1000 / s.storm.rovers,
            }
          : null,
    };
  }
  clearInterval(timer);
  clearInterval(positionTimer);

  const loaded = await caster.stats(true);
  const samples = delaysBetween(reports, windowStart, windowEnd);
  const tlsSamples = delaysBetween(tlsReports, windowStart, windowEnd);
  const tls = s.tls
    ? {
        rovers: s.tls,
        p50: percentile(tlsSamples, 50),
        p99: percentile(tlsSamples, 99),
        delivered: tlsSamples.length / (s.tls * sentInWindow),
        disconnected: tlsReports.reduce((n, r) => n + r.disconnected, 0),
      }
    : null;
  const cpuMicros = after.cpuMicros - before.cpuMicros;
  const wallMicros = (after.at - before.at) * 1000;
  const allRovers = s.rovers + (s.storm?.rovers ?? 0) + (s.tls ?? 0);
  const result = {
    ...s,
    caster: caster.label,
    connectMs,
    rovers: after.ours?.rovers ?? s.rovers,
    samples: samples.length,
    expected: s.capture ? Number.NaN : s.rovers * sentInWindow,
    disconnected: reports.reduce((n, r) => n + r.disconnected, 0),
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    p99: percentile(samples, 99),
    max: samples.length ? (samples[samples.length - 1] as number) : Number.NaN,
    cpuPercent: (100 * cpuMicros) / wallMicros,
    mainCpuPercent: after.ours
      ? (100 * (after.ours.mainCpuMicros - (before.ours as CasterStats).mainCpuMicros)) / wallMicros
      : Number.NaN,
    allocatedMBps: after.ours ? after.ours.allocated / 1e6 / (wallMicros / 1e6) : Number.NaN,
    roversCpuPercent: (100 * [...reports, ...tlsReports].reduce((n, r) => n + r.cpuMicros, 0)) / loadWallMicros,
    baseMiB: base.rss / 2 ** 20,
    rssPerRoverKb: (loaded.rss - base.rss) / 1024 / allRovers,
    fanOut: after.ours?.fanOutMs,
    writes: after.ours ? (after.ours.directWrites ? `uring×${after.ours.fanOutThreads}` : 'Node') : '-',
    gc: after.ours?.gcPausesMs,
    load: os.loadavg()[0] ?? 0,
    integrity: which === 'ours' ? integrity : null,
    storm,
    tls,
  };
  for (const l of allLoaders) l.stop();
  stormLoader?.stop();
  clearInterval(othersTimer);
  for (const other of others) other.destroy();
  source.destroy();
  const archived = await caster.stop();
  if (archiveDir) rmSync(archiveDir, { recursive: true, force: true });
  if (tlsDir) rmSync(tlsDir, { recursive: true, force: true });
  return { ...result, archived: archived && { ...archived, sent: sent + othersSent() } };
}

type Result = Awaited<ReturnType<typeof run>>;

const ms = (n: number | undefined, digits = 2) => (n === undefined || !Number.isFinite(n) ? '-' : n.toFixed(digits));

function printRow(r: Result) {
  console.log(
    [
      r.name.padEnd(13),
      r.caster.padEnd(6),
      String(r.rovers).padStart(6),
      `${r.frameBytes} B`.padStart(6),
      `${r.hz} Hz`.padStart(6),
      `${(r.connectMs / 1000).toFixed(1)} s`.padStart(8),
      ms(r.p50).padStart(8),
      ms(r.p95).padStart(7),
      ms(r.p99).padStart(7),
      ms(r.max, 1).padStart(7),
      `${((100 * r.samples) / r.expected).toFixed(1)} %`.padStart(10),
      String(r.disconnected).padStart(8),
      `${r.cpuPercent.toFixed(1)} %`.padStart(11),
      `${ms(r.mainCpuPercent, 1)} %`.padStart(9),
      `${r.roversCpuPercent.toFixed(1)} %`.padStart(11),
      `${r.baseMiB.toFixed(1)} MiB`.padStart(10),
      `${r.rssPerRoverKb.toFixed(2)} KB`.padStart(10),
      (r.fanOut ? `${r.fanOut.p50.toFixed(2)} / ${r.fanOut.p99.toFixed(2)}` : '-').padStart(19),
      (r.gc ? `${r.gc.length} / ${Math.max(0, ...r.gc).toFixed(1)}` : '-').padStart(12),
      `${ms(r.allocatedMBps)} MB/s`.padStart(11),
      r.load.toFixed(1).padStart(9),
      r.writes.padStart(8),
      (r.archived ? `on (${r.archived.frames}/${r.archived.dropped} of ${r.archived.sent})` : 'off').padStart(10),
      (r.integrity === null ? '-' : r.integrity ? 'on' : 'off').padStart(9),
    ].join(' '),
  );
  if (r.tls) {
    const t = r.tls;
    console.log(
      `              over TLS, ${t.rovers} more rovers in the same run: p50 ${ms(t.p50)} ms, p99 ${ms(t.p99)} ms against the ${r.rovers - t.rovers} plain rovers' p50 ${ms(r.p50)} ms, p99 ${ms(r.p99)} ms; delivered ${(100 * t.delivered).toFixed(1)} %, dropped ${t.disconnected}; caster CPU ${r.cpuPercent.toFixed(1)} % for both (compare 1000@5 for plain rovers alone)`,
    );
  }
  if (r.storm) {
    const st = r.storm;
    console.log(
      `              storm of ${st.rovers} rovers: ICY 200 OK median ${ms(st.okP50, 1)} ms, p99 ${ms(st.okP99, 1)} ms, ${st.unanswered ? `${st.unanswered} reset or unanswered after` : 'all answered in'} ${st.stormMs.toFixed(0)} ms; CPU per connection ${ms(st.cpuPerConnectionMs, 3)} ms;${st.answeredNatively === null ? '' : ` ${st.answeredNatively} answered natively;`}${st.threadsPerConnectionMs ? ` (main ${ms(st.threadsPerConnectionMs.main, 3)}, I/O ${ms(st.threadsPerConnectionMs.io, 3)}, fan-out ${ms(st.threadsPerConnectionMs.fanOut, 3)} ms);` : ''} connected rovers' p99 ${ms(st.connectedP99)} ms during against ${ms(r.p99)} ms before (${((100 * (st.connectedP99 - r.p99)) / r.p99).toFixed(0)} %)`,
    );
  }
}

const median = (values: number[]) => {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  return sorted.length ? (sorted[Math.floor((sorted.length - 1) / 2)] as number) : Number.NaN;
};

/** Medians over the runs of each caster, and ours ÷ other for each. */
function printRatios(s: Scenario, ours: Result[], other: Result[]) {
  const rows: Array<[string, (r: Result) => number]> = [
    ['p99 latency', (r) => r.p99],
    ['p50 latency', (r) => r.p50],
    ['caster CPU', (r) => r.cpuPercent],
    ['RSS per rover', (r) => r.rssPerRoverKb],
    ['baseline RSS', (r) => r.baseMiB],
  ];
  if (s.storm) {
    rows.push(
      ['storm: median to OK', (r) => r.storm?.okP50 ?? Number.NaN],
      ['storm: p99 to OK', (r) => r.storm?.okP99 ?? Number.NaN],
      ['storm: CPU per connection', (r) => r.storm?.cpuPerConnectionMs ?? Number.NaN],
      ['storm: connected rovers p99', (r) => r.storm?.connectedP99 ?? Number.NaN],
      ['storm: connected p99 change %', (r) => (100 * ((r.storm?.connectedP99 ?? Number.NaN) - r.p99)) / r.p99],
    );
  }
  console.log(`  ${s.name}: medians of ${ours.length} runs each, ours / other = ratio`);
  for (const [label, of] of rows) {
    const a = median(ours.map(of));
    const b = median(other.map(of));
    console.log(`    ${label.padEnd(30)} ${ms(a).padStart(9)} / ${ms(b).padStart(9)} = ${ms(a / b)}`);
  }
}

console.log(
  `Caster bench: ${SECONDS} s measured per scenario after ${WARMUP_MS / 1000} s warm-up, ${LOADERS} load processes in ${ROVERS === 'c' ? 'C' : 'Node'}${ISOLATE ? ' (isolated: rovers on the last core, caster on the others)' : ''}, Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]?.toFixed(1)}${PRIORITY === undefined ? '' : `, nice ${PRIORITY}`}${STATIONS ? `, ${STATIONS} more stations at 1 Hz` : ''}${OTHER ? `, against BENCH_OTHER_CASTER (${RUNS} runs each, alternating)` : ''}`,
);
console.log(
  'scenario      caster rovers  frame   rate  connect   p50 ms  p95 ms  p99 ms  max ms  delivered  dropped  caster CPU  main CPU  rovers CPU   baseline  RSS/rover  fan-out p50/p99 ms  GC n/max ms  main alloc  load avg  writes  archive (frames stored/dropped of sent)  integrity',
);
/** Issue 33's target: our fan-out p99 with the integrity monitor within 5 % of the caster without it. */
function printIntegrity(s: Scenario, off: Result[], on: Result[]) {
  const p99 = (rs: Result[]) => median(rs.map((r) => r.fanOut?.p99 ?? Number.NaN));
  const p50 = (rs: Result[]) => median(rs.map((r) => r.fanOut?.p50 ?? Number.NaN));
  const [a, b] = [p99(off), p99(on)];
  console.log(
    `  ${s.name}: integrity monitor off / on, medians of ${on.length} runs each: fan-out p99 ${ms(a)} / ${ms(b)} ms (${b >= a ? '+' : ''}${ms((100 * (b - a)) / a, 1)} %, target at most +5 %), fan-out p50 ${ms(p50(off))} / ${ms(p50(on))} ms, rover p99 ${ms(median(off.map((r) => r.p99)))} / ${ms(median(on.map((r) => r.p99)))} ms, main CPU ${ms(median(off.map((r) => r.mainCpuPercent)), 1)} / ${ms(median(on.map((r) => r.mainCpuPercent)), 1)} %, load average ${ms(median([...off, ...on].map((r) => r.load)), 1)}`,
  );
}

/** Issue 36's target: the fan-out p99 of rovers split over four profiles within 10 % of the same rovers on as-sent. */
const captureRuns: Record<'as-sent' | 'profiles', Result[]> = { 'as-sent': [], profiles: [] };
function printProfiles() {
  const p99 = (rs: Result[]) => median(rs.map((r) => r.fanOut?.p99 ?? Number.NaN));
  const p50 = (rs: Result[]) => median(rs.map((r) => r.fanOut?.p50 ?? Number.NaN));
  const [a, b] = [p99(captureRuns['as-sent']), p99(captureRuns.profiles)];
  console.log(
    `  profiles: ${captureRuns.profiles[0]?.rovers ?? '-'} rovers on one station, all as-sent / over four profiles: fan-out p99 ${ms(a)} / ${ms(b)} ms (${b >= a ? '+' : ''}${ms((100 * (b - a)) / a, 1)} %, target at most +10 %), fan-out p50 ${ms(p50(captureRuns['as-sent']))} / ${ms(p50(captureRuns.profiles))} ms, main CPU ${ms(median(captureRuns['as-sent'].map((r) => r.mainCpuPercent)), 1)} / ${ms(median(captureRuns.profiles.map((r) => r.mainCpuPercent)), 1)} %`,
  );
}

for (const s of chosen) {
  const results: Record<'ours' | 'other', Result[]> = { ours: [], other: [] };
  const monitored: Record<'off' | 'on', Result[]> = { off: [], on: [] };
  for (let i = 0; i < RUNS; i++) {
    // Alternating, and each caster first every other run, so a change in the machine's load falls on both.
    const order: Array<'ours' | 'other'> =
      !OTHER || s.tls ? ['ours'] : i % 2 === 0 ? ['ours', 'other'] : ['other', 'ours'];
    // The monitor's runs alternate the same way.
    const integrityOrder = i % 2 === 0 ? INTEGRITY_MODES : [...INTEGRITY_MODES].reverse();
    for (const which of order) {
      let off: Result | undefined;
      const variants = (which === 'ours' ? ARCHIVE_MODES : [false]).flatMap((archiving) =>
        (which === 'ours' ? integrityOrder : [true]).map((integrity) => ({ archiving, integrity })),
      );
      for (const { archiving, integrity } of variants) {
        const r = await run(s, archiving, which, integrity);
        printRow(r);
        if (s.capture && which === 'ours') captureRuns[s.capture.profiles ? 'profiles' : 'as-sent'].push(r);
        if (which === 'ours' && INTEGRITY === 'both' && !archiving) monitored[integrity ? 'on' : 'off'].push(r);
        // The archive and the other caster are compared with one setting of the monitor: the last in INTEGRITY_MODES.
        if (which === 'ours' && integrity !== INTEGRITY_MODES.at(-1)) continue;
        if (!archiving) {
          off = r;
          results[which].push(r);
        } else if (off?.fanOut && r.fanOut && off.gc && r.gc) {
          // Issue 23's target: the fan-out p99 with archiving within 5 % of the caster without it.
          const change = (on: number, base: number) =>
            `${on >= base ? '+' : ''}${((100 * (on - base)) / base).toFixed(1)} %`;
          console.log(
            `        archiving on against off: fan-out p99 ${change(r.fanOut.p99, off.fanOut.p99)} (target at most +5 %), rover p99 ${change(r.p99, off.p99)}, GC ${off.gc.length} -> ${r.gc.length}, main-thread garbage ${off.allocatedMBps.toFixed(2)} -> ${r.allocatedMBps.toFixed(2)} MB/s, main CPU ${off.mainCpuPercent.toFixed(1)} -> ${r.mainCpuPercent.toFixed(1)} %, caster CPU ${off.cpuPercent.toFixed(1)} -> ${r.cpuPercent.toFixed(1)} %`,
          );
        }
      }
    }
  }
  if (OTHER) printRatios(s, results.ours, results.other);
  if (INTEGRITY === 'both') printIntegrity(s, monitored.off, monitored.on);
}
if (captureRuns['as-sent'].length && captureRuns.profiles.length) printProfiles();
process.exit(0);
