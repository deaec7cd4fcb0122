import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CASTER_NODE_FLAGS, encodeFrame } from '../src/index.ts';
import {
  cLoader,
  compileRoverLoad,
  type Loader,
  type LoaderOptions,
  monotonicMs,
  nextMessage,
  nodeLoader,
} from './rover-loaders.ts';

/**
 * `npm run bench:caster`: the caster in one process, rovers (half NTRIP 1, half NTRIP 2) in separate load
 * processes, one SOURCE on one mountpoint sending frames whose payload carries the send time. Prints the added
 * latency (receive time in a load process minus the stamped send time), the caster's CPU and its RSS per rover.
 * BENCH_SECONDS (measuring window, 15), BENCH_LOADERS (load processes: 1, or 4 for Node rovers not isolated),
 * BENCH_PRIORITY, BENCH_ISOLATE, BENCH_DIRECT (0: the caster writes through Node instead of io_uring), BENCH_ONLY
 * (scenarios by rovers@hz, e.g. `1000@5,5000@1`), BENCH_ROVERS (`c`, the default, or `node`: which load
 * generator) and BENCH_ARCHIVE (`off`, the default, `on`, or `both`: each scenario without and then with the
 * caster archiving the mountpoint's frames to a temporary folder), and BENCH_STATIONS (more stations, without
 * rovers, each fed a 900-byte frame a second by its own source, so that archiving carries a network's load)
 * adjust it.
 */

interface Scenario {
  rovers: number;
  frameBytes: number;
  hz: number;
}

const SCENARIOS: Scenario[] = [
  { rovers: 1000, frameBytes: 933, hz: 1 },
  { rovers: 5000, frameBytes: 933, hz: 1 },
  { rovers: 10000, frameBytes: 933, hz: 1 },
  { rovers: 1000, frameBytes: 33, hz: 5 },
];
const ONLY = process.env.BENCH_ONLY?.split(',');
const chosen = SCENARIOS.filter((s) => !ONLY || ONLY.includes(`${s.rovers}@${s.hz}`));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
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
const STATIONS = Number(process.env.BENCH_STATIONS ?? 0);

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
  /** Pauses of the caster's garbage collections since the previous stats request. */
  gcPausesMs: number[];
}

/**
 * BENCH_PRIORITY (a nice value, e.g. -5; needs root for negative values) gives the bench's processes precedence
 * over other work on a shared machine, so the figures show the caster rather than the queue for a core.
 */
const PRIORITY = process.env.BENCH_PRIORITY === undefined ? undefined : Number(process.env.BENCH_PRIORITY);
if (PRIORITY !== undefined) os.setPriority(PRIORITY);

/**
 * The caster with the Node options the server runs it with, and `--expose-gc`, so its memory figures are read
 * after a collection.
 */
function casterProcess(archiveDir: string | undefined): ChildProcess {
  const proc = fork(here('./caster-process.ts'), [], {
    execArgv: ['--import', 'tsx', '--expose-gc', ...CASTER_NODE_FLAGS],
    stdio: 'inherit',
    env: archiveDir ? { ...process.env, BENCH_ARCHIVE_DIR: archiveDir } : process.env,
  });
  if (PRIORITY !== undefined && proc.pid !== undefined) os.setPriority(proc.pid, PRIORITY);
  return proc;
}

/** With `gc`, garbage is collected first (memory figures); never inside the measuring window, where it would pause. */
async function casterStats(caster: ChildProcess, gc: boolean): Promise<CasterStats> {
  const reply = nextMessage<CasterStats>(caster, 'stats');
  caster.send({ type: 'stats', gc });
  return reply;
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

async function run(s: Scenario, archiving: boolean) {
  const archiveDir = archiving ? mkdtempSync(join(os.tmpdir(), 'bench-archive-')) : undefined;
  const caster = casterProcess(archiveDir);
  if (ISOLATE && caster.pid !== undefined) {
    const casterCores = lastCore > 0 ? `0-${lastCore - 1}` : '0';
    execFileSync('taskset', ['-pc', casterCores, String(caster.pid)], { stdio: 'ignore' });
  }
  const { port } = await nextMessage<{ port: number }>(caster, 'ready');
  // The baseline is read after a first round of rovers came and went, so what the first connections cost once
  // (compiled code, buffer pools) does not count as per-rover memory.
  await warmUp(port, 200);
  await casterStats(caster, true);
  await new Promise((r) => setTimeout(r, 1000));
  const base = await casterStats(caster, true);

  const source = await connectSource(port, 'BENCH');
  const others = await Promise.all(Array.from({ length: STATIONS }, (_, i) => connectSource(port, `ST${i}`)));
  // Each other station sends its frame once a second, the stations spread over the second.
  let nextOther = 0;
  const othersTimer = setInterval(() => {
    for (let n = 0; n < STATIONS / 100; n++) others[nextOther++ % STATIONS]?.write(frame(900, monotonicMs()));
  }, 10);
  const othersSent = () => nextOther;

  // Frames flow while the rovers connect, so the source is never dropped as silent. The window is a span of send
  // times: a frame counts when its stamp lies in it, however late it arrives, so none is lost at either edge.
  let windowStart = Number.POSITIVE_INFINITY;
  let windowEnd = Number.POSITIVE_INFINITY;
  const inWindow = (sentAt: number) => sentAt >= windowStart && sentAt < windowEnd;
  let sentInWindow = 0;
  let sent = 0;
  const timer = setInterval(() => {
    const sentAt = monotonicMs();
    source.write(frame(s.frameBytes, sentAt));
    sent++;
    if (inWindow(sentAt)) sentInWindow++;
  }, 1000 / s.hz);
  const loaders: Loader[] = [];
  const share = Math.ceil(s.rovers / LOADERS);
  for (let first = 0; first < s.rovers; first += share) {
    const options: LoaderOptions = {
      port,
      count: Math.min(share, s.rovers - first),
      first,
      spin: ISOLATE,
      priority: PRIORITY,
    };
    loaders.push(ROVERS === 'c' ? cLoader(roverBinary, options) : nodeLoader(options));
  }
  const connectStart = Date.now();
  await Promise.all(loaders.map((l) => l.connected));
  const connectMs = Date.now() - connectStart;

  await new Promise((r) => setTimeout(r, WARMUP_MS));
  await Promise.all(loaders.map((l) => l.measure()));
  windowStart = monotonicMs();
  const before = await casterStats(caster, false);
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const after = await casterStats(caster, false);
  windowEnd = monotonicMs();
  // Time for the window's last frame to reach every rover; frames sent meanwhile are outside the window.
  await new Promise((r) => setTimeout(r, 500));
  const loadWallMicros = (monotonicMs() - windowStart) * 1000;
  const reports = await Promise.all(loaders.map((l) => l.report()));
  clearInterval(timer);

  const loaded = await casterStats(caster, true);
  const samples = Float64Array.from(
    reports.flatMap((r) => [...r.delays.filter((_, i) => inWindow(r.sentAt[i] as number))]),
  );
  samples.sort();
  const cpuMicros = after.cpu.user + after.cpu.system - (before.cpu.user + before.cpu.system);
  const wallMicros = (after.at - before.at) * 1000;
  const result = {
    ...s,
    connectMs,
    rovers: after.rovers,
    samples: samples.length,
    expected: s.rovers * sentInWindow,
    disconnected: reports.reduce((n, r) => n + r.disconnected, 0),
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    p99: percentile(samples, 99),
    max: samples.length ? (samples[samples.length - 1] as number) : Number.NaN,
    cpuPercent: (100 * cpuMicros) / wallMicros,
    mainCpuPercent: (100 * (after.mainCpuMicros - before.mainCpuMicros)) / wallMicros,
    allocatedMBps: after.allocated / 1e6 / (wallMicros / 1e6),
    roversCpuPercent: (100 * reports.reduce((n, r) => n + r.cpuMicros, 0)) / loadWallMicros,
    rssPerRoverKb: (loaded.rss - base.rss) / 1024 / s.rovers,
    fanOut: after.fanOutMs,
    writes: after.directWrites ? 'io_uring' : 'Node',
    gc: after.gcPausesMs,
    load: os.loadavg()[0] ?? 0,
  };
  for (const l of loaders) l.stop();
  clearInterval(othersTimer);
  for (const other of others) other.destroy();
  source.destroy();
  const stopped = nextMessage<{ archived: { frames: number; dropped: number } | null }>(caster, 'stopped');
  caster.send({ type: 'stop' });
  const { archived } = await stopped;
  await new Promise((r) => caster.once('exit', r));
  if (archiveDir) rmSync(archiveDir, { recursive: true, force: true });
  return { ...result, archived: archived && { ...archived, sent: sent + othersSent() } };
}

console.log(
  `Caster bench: ${SECONDS} s measured per scenario after ${WARMUP_MS / 1000} s warm-up, ${LOADERS} load processes in ${ROVERS === 'c' ? 'C' : 'Node'}${ISOLATE ? ' (isolated: rovers on the last core, caster on the others)' : ''}, Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]?.toFixed(1)}${PRIORITY === undefined ? '' : `, nice ${PRIORITY}`}${STATIONS ? `, ${STATIONS} more stations at 1 Hz` : ''}`,
);
console.log(
  'rovers  frame   rate  connect   p50 ms  p95 ms  p99 ms  max ms  delivered  dropped  caster CPU  main CPU  rovers CPU  RSS/rover  fan-out p50/p99 ms  GC n/max ms  main alloc  load avg  writes  archive (frames stored/dropped of sent)',
);
for (const s of chosen) {
  let off: Awaited<ReturnType<typeof run>> | undefined;
  for (const archiving of ARCHIVE_MODES) {
    const r = await run(s, archiving);
    console.log(
      [
        String(r.rovers).padStart(6),
        `${r.frameBytes} B`.padStart(6),
        `${r.hz} Hz`.padStart(6),
        `${(r.connectMs / 1000).toFixed(1)} s`.padStart(8),
        r.p50.toFixed(2).padStart(8),
        r.p95.toFixed(2).padStart(7),
        r.p99.toFixed(2).padStart(7),
        r.max.toFixed(1).padStart(7),
        `${((100 * r.samples) / r.expected).toFixed(1)} %`.padStart(10),
        String(r.disconnected).padStart(8),
        `${r.cpuPercent.toFixed(1)} %`.padStart(11),
        `${r.mainCpuPercent.toFixed(1)} %`.padStart(9),
        `${r.roversCpuPercent.toFixed(1)} %`.padStart(11),
        `${r.rssPerRoverKb.toFixed(2)} KB`.padStart(10),
        `${r.fanOut.p50.toFixed(2)} / ${r.fanOut.p99.toFixed(2)}`.padStart(19),
        `${r.gc.length} / ${Math.max(0, ...r.gc).toFixed(1)}`.padStart(12),
        `${r.allocatedMBps.toFixed(2)} MB/s`.padStart(11),
        r.load.toFixed(1).padStart(9),
        r.writes.padStart(8),
        (r.archived ? `on (${r.archived.frames}/${r.archived.dropped} of ${r.archived.sent})` : 'off').padStart(10),
      ].join(' '),
    );
    if (!archiving) off = r;
    else if (off) {
      // Issue 23's target: the fan-out p99 with archiving within 5 % of the caster without it.
      const change = (on: number, base: number) =>
        `${on >= base ? '+' : ''}${((100 * (on - base)) / base).toFixed(1)} %`;
      console.log(
        `        archiving on against off: fan-out p99 ${change(r.fanOut.p99, off.fanOut.p99)} (target at most +5 %), rover p99 ${change(r.p99, off.p99)}, GC ${off.gc.length} -> ${r.gc.length}, main-thread garbage ${off.allocatedMBps.toFixed(2)} -> ${r.allocatedMBps.toFixed(2)} MB/s, main CPU ${off.mainCpuPercent.toFixed(1)} -> ${r.mainCpuPercent.toFixed(1)} %, caster CPU ${off.cpuPercent.toFixed(1)} -> ${r.cpuPercent.toFixed(1)} %`,
      );
    }
  }
}
process.exit(0);
