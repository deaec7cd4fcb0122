import { PerformanceObserver } from 'node:perf_hooks';
import { type CasterPorts, createCaster } from '../src/index.ts';

/**
 * The caster under load, alone in its process so its CPU time and memory are its own. In-memory ports: one
 * account allowed everything, one mountpoint; what is measured is the relay, not the database.
 */
const FAR_FUTURE = new Date('2100-01-01T00:00:00Z');
const ports: CasterPorts = {
  auth: {
    authorize: async () => ({
      allowed: true,
      accountId: 'bench',
      ownerId: 'bench',
      maxConnections: 1_000_000,
      until: FAR_FUTURE,
    }),
    access: async () => new Map([['bench', new Map([['bench', FAR_FUTURE]])]]),
  },
  catalogue: {
    snapshot: async () => ({
      networks: [{ slug: 'bench', name: 'Bench', operator: 'bench', webUrl: '', listed: true }],
      mountpoints: [
        {
          mountpoint: 'BENCH',
          network: 'bench',
          latitude: 52,
          longitude: 5,
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
        },
      ],
    }),
    verifySourcePassword: async (_mountpoint, password) => password === 'bench',
    pullFeeds: async () => [],
  },
  usage: { recordSessions: async () => {}, stationStatus: async () => {}, feedStatus: async () => {} },
};

// BENCH_DIRECT=0 writes through Node alone, to compare with the io_uring fan-out.
const caster = await createCaster({
  ports,
  limits: { roverIdleMs: 600_000 },
  directWrites: process.env.BENCH_DIRECT !== '0',
});
const { port } = await caster.listen(0, '127.0.0.1');

/**
 * The caster's garbage collections since the last stats request: a collection pauses the fan-out, so a pause
 * inside the measured window delays a whole frame for every rover.
 */
let collections: number[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) collections.push(entry.duration);
}).observe({ entryTypes: ['gc'] });

type Request = { type: 'stats'; gc: boolean } | { type: 'stop' };
const send = (message: object) => process.send?.(message);

process.on('message', async (message: Request) => {
  if (message.type === 'stats') {
    const gcPausesMs = collections;
    collections = [];
    if (message.gc) (globalThis as { gc?: () => void }).gc?.();
    const memory = process.memoryUsage();
    const stats = caster.stats();
    send({
      type: 'stats',
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      cpu: process.cpuUsage(),
      at: performance.now(),
      rovers: stats.rovers,
      fanOutMs: stats.fanOutMs,
      directWrites: stats.directWrites.active,
      gcPausesMs,
    });
  } else if (message.type === 'stop') {
    await caster.close();
    process.exit(0);
  }
});
send({ type: 'ready', port });
