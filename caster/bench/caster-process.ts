import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import type { ArchiveOptions } from '../src/archive/index.ts';
import { type CasterPorts, createCaster } from '../src/index.ts';

/**
 * The caster under load, alone in its process so its CPU time and memory are its own. In-memory ports: one
 * account allowed everything, one mountpoint; what is measured is the relay, not the database.
 */
const FAR_FUTURE = new Date('2100-01-01T00:00:00Z');
const mountpoint = (name: string) => ({
  mountpoint: name,
  network: 'bench',
  latitude: 52,
  longitude: 5,
  // Injected as 1008 after each 1005 into every encoded output (ADR 0088).
  antenna: 'TRM59800.00     SCIS',
  str: {
    identifier: 'bench',
    format: 'RTCM 3.3',
    formatDetails: '1077(1)',
    carrier: 2,
    navSystem: 'GPS',
    country: 'NLD',
    receiver: 'bench',
    bitrate: 0,
  },
});
/** BENCH_STATIONS: more stations (ST0, ST1, …), fed by the bench without rovers, for the archive to carry. */
const stations = Array.from({ length: Number(process.env.BENCH_STATIONS ?? 0) }, (_, i) => mountpoint(`ST${i}`));
/**
 * BENCH_BUS_URL: a node of several sharing sources over NATS (`npm run bench:topology`). Its rovers then belong to
 * 100 accounts, as a network's do, so the logins' compare-and-set writes in the connection ledger (ADR 0040) are
 * not all on one key.
 */
const busUrl = process.env.BENCH_BUS_URL;
let logins = 0;
/** BENCH_RTCM_PROFILES: the logins get these outputs in turn (issue 36), so a quarter of the rovers is on each. */
const OUTPUTS = process.env.BENCH_RTCM_PROFILES
  ? ([
      { rtcmProfile: 'as-sent', constellations: null },
      { rtcmProfile: 'msm4', constellations: null },
      { rtcmProfile: 'legacy', constellations: null },
      { rtcmProfile: 'as-sent', constellations: ['GPS', 'GLO'] },
    ] as const)
  : null;
let profileLogins = 0;
const ports: CasterPorts = {
  auth: {
    authorize: async (_username, password) =>
      password !== 'bench'
        ? { allowed: false, reason: 'bad_credentials' }
        : {
            allowed: true,
            accountId: busUrl ? `bench-${logins++ % 100}` : 'bench',
            ownerId: 'bench',
            maxConnections: 1_000_000,
            until: FAR_FUTURE,
            ...OUTPUTS?.[profileLogins++ % OUTPUTS.length],
            // The portal's authorizer keeps an answer 30 s; rotating the profiles gives each login another answer.
            ...(!OUTPUTS && { reusableMs: 30_000 }),
          },
    // Nothing changes during a bench.
    onChange: () => {},
    access: async (accountIds) =>
      new Map(
        [...accountIds, 'bench'].map((id) => [
          id,
          { maxConnections: 1_000_000, networks: new Map([['bench', FAR_FUTURE]]) },
        ]),
      ),
  },
  catalogue: {
    snapshot: async () => ({
      networks: [{ slug: 'bench', name: 'Bench', operator: 'bench', webUrl: '', listed: true }],
      mountpoints: [mountpoint('BENCH'), ...stations],
    }),
    verifySourcePassword: async (_mountpoint, password) => password === 'bench',
    pullFeeds: async () => [],
  },
  usage: { recordSessions: async () => {}, stationStatus: async () => {}, feedStatus: async () => {} },
};

/** Frames the archive stored, as its index port was told: shows the archive kept up (or dropped). */
const archived = { frames: 0, dropped: 0 };
// The bench sets BENCH_ARCHIVE_DIR for a run with archiving on: every frame of the mountpoint goes to that folder.
const archiveDir = process.env.BENCH_ARCHIVE_DIR;
const archive: ArchiveOptions | undefined = archiveDir
  ? {
      store: { kind: 'local', dir: archiveDir },
      index: {
        recordHours: async (updates) => {
          for (const u of updates) {
            archived.frames += u.frames;
            archived.dropped += u.droppedFrames;
          }
        },
      },
    }
  : undefined;

// BENCH_DIRECT=0 writes through Node alone, to compare with the io_uring fan-out; BENCH_FANOUT_THREADS sets the
// threads sharing each frame's sends (the caster's default otherwise); BENCH_NATIVE_IO=0 serves the plain port through
// Node, to compare with the native I/O thread (ADR 0095, the caster's default). The bench sets
// BENCH_INTEGRITY_OFF for the run without the station integrity monitor (issue 33), which is on by default.
const caster = await createCaster({
  ports,
  limits: { roverIdleMs: 600_000 },
  directWrites: process.env.BENCH_DIRECT !== '0',
  ...(process.env.BENCH_FANOUT_THREADS && { fanOutThreads: Number(process.env.BENCH_FANOUT_THREADS) }),
  nativeIo: process.env.BENCH_NATIVE_IO !== '0',
  archive,
  integrity: !process.env.BENCH_INTEGRITY_OFF,
  busUrl,
  busPrefix: process.env.BENCH_BUS_PREFIX,
  nodeId: process.env.BENCH_NODE_ID,
  // The TLS scenario (tls-1000@5) names a certificate the bench made; its rovers come in on a TLS port too.
  ...(process.env.BENCH_TLS_CERT && {
    tls: { certFile: process.env.BENCH_TLS_CERT, keyFile: process.env.BENCH_TLS_KEY as string },
  }),
});
const { port } = await caster.listen(0, '127.0.0.1');
const tlsPort = process.env.BENCH_TLS_CERT ? (await caster.listenTls(0, '127.0.0.1')).port : undefined;

/**
 * The caster's garbage collections since the last stats request: a collection pauses the fan-out, so a pause
 * inside the measured window delays a whole frame for every rover.
 */
let collections: number[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) collections.push(entry.duration);
}).observe({ entryTypes: ['gc'] });

/**
 * Bytes the caster's main thread allocated since the last stats request: its heap now, plus what each collection
 * in between found and freed (V8's GC profiler gives the heap before and after each). A worker thread has a
 * heap of its own, not counted here: this is the garbage that pauses the rovers.
 */
let profiler = new v8.GCProfiler();
profiler.start();
let heapAfterLast = v8.getHeapStatistics().used_heap_size;
function mainThreadAllocated(): number {
  const { statistics } = profiler.stop();
  let allocated = 0;
  let after = heapAfterLast;
  for (const gc of statistics) {
    allocated += gc.beforeGC.heapStatistics.usedHeapSize - after;
    after = gc.afterGC.heapStatistics.usedHeapSize;
  }
  const now = v8.getHeapStatistics().used_heap_size;
  allocated += now - after;
  heapAfterLast = now;
  profiler = new v8.GCProfiler();
  profiler.start();
  return allocated;
}

/**
 * CPU time of the main thread alone, in microseconds, from Linux's per-thread accounting (the process's figure
 * includes its other threads: libuv's pool, workers); NaN elsewhere.
 */
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100;
  } catch {
    return 100;
  }
})();
function mainThreadCpuMicros(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS;
  } catch {
    return Number.NaN;
  }
}

/** CPU time (µs) of the caster's named native threads: the native port's I/O thread and the fan-out's helpers. */
function nativeThreadsCpuMicros(): { io: number; fanOut: number } {
  const cpu = { io: 0, fanOut: 0 };
  try {
    for (const task of readdirSync('/proc/self/task')) {
      const name = readFileSync(`/proc/self/task/${task}/comm`, 'latin1').trim();
      const key = name === 'caster-io' ? 'io' : name === 'caster-fanout' ? 'fanOut' : null;
      if (!key) continue;
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'latin1');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu[key] += ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS;
    }
  } catch {
    return { io: Number.NaN, fanOut: Number.NaN };
  }
  return cpu;
}

type Request = { type: 'stats'; gc: boolean } | { type: 'stop' };
const send = (message: object) => process.send?.(message);

process.on('message', async (message: Request) => {
  if (message.type === 'stats') {
    const gcPausesMs = collections;
    collections = [];
    const allocated = mainThreadAllocated();
    const mainCpuMicros = mainThreadCpuMicros();
    if (message.gc) (globalThis as { gc?: () => void }).gc?.();
    const memory = process.memoryUsage();
    const stats = caster.stats();
    send({
      type: 'stats',
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      cpu: process.cpuUsage(),
      mainCpuMicros,
      threadsCpuMicros: nativeThreadsCpuMicros(),
      allocated,
      at: performance.now(),
      rovers: stats.rovers,
      fanOutMs: stats.fanOutMs,
      directWrites: stats.directWrites.active,
      fanOutThreads: stats.directWrites.threads,
      gcPausesMs,
      nativeLogins: stats.nativeLogins,
    });
  } else if (message.type === 'stop') {
    await caster.close();
    // After close: the archive has stored what it held and told its index.
    process.send?.({ type: 'stopped', archived: archive ? archived : null }, () => process.exit(0));
  }
});
send({ type: 'ready', port, tlsPort });
