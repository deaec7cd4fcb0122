import { rmSync } from 'node:fs';
import net from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Loaded into a portal process by `npm run bench:isolation` (`--import`), never by the portal itself: it samples
 * the process's event-loop delay and answers `reset` and `read` on the unix socket BENCH_LOOP_DELAY_SOCKET names.
 * A reading is the lateness of a timer due every RESOLUTION_MS, so an idle loop reads close to zero.
 */
export const RESOLUTION_MS = 5;

export interface LoopDelayReading {
  p50: number;
  p99: number;
  max: number;
  samples: number;
  /** Resident memory now, and CPU time since the last reset (microseconds). */
  rss: number;
  cpuMicros: number;
}

const path = process.env.BENCH_LOOP_DELAY_SOCKET;
if (path) {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  let cpuAtReset = process.cpuUsage();
  const late = (ns: number) => Math.max(0, ns / 1e6 - RESOLUTION_MS);
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', (command) => {
      if (command.toString().trim() === 'reset') {
        histogram.reset();
        cpuAtReset = process.cpuUsage();
        socket.end('{}\n');
        return;
      }
      const cpu = process.cpuUsage(cpuAtReset);
      const reading: LoopDelayReading = {
        p50: late(histogram.percentile(50)),
        p99: late(histogram.percentile(99)),
        max: late(histogram.max),
        samples: histogram.count,
        rss: process.memoryUsage.rss(),
        cpuMicros: cpu.user + cpu.system,
      };
      socket.end(`${JSON.stringify(reading)}\n`);
    });
  });
  rmSync(path, { force: true });
  server.listen(path);
  server.unref();
}
