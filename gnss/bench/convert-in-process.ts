/**
 * One conversion timed inside the process, for `npm run bench:rinex`: the CPU and wall time of convertRtcmToRinex
 * alone, without Node's and tsx's start-up and module loading. Prints one JSON line.
 * Arguments: IN OBS NAV TIME.
 */
import { convertRtcmToRinex, fileSource } from '../src/convert.ts';
import { type GpsTime, parseApproxTime } from '../src/time.ts';

const [input, obsOut, navOut, time] = process.argv.slice(2) as [string, string, string, string];
const started = performance.now();
const cpu = process.cpuUsage();
const rssBefore = process.memoryUsage.rss();
const result = await convertRtcmToRinex({
  input: fileSource(input),
  approxTime: parseApproxTime(time) as GpsTime,
  obsOut,
  navOut,
});
const used = process.cpuUsage(cpu);
process.stdout.write(
  `${JSON.stringify({
    wallSeconds: (performance.now() - started) / 1000,
    cpuSeconds: (used.user + used.system) / 1e6,
    rssBeforeMb: rssBefore / 2 ** 20,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    epochs: result.epochs,
    navRecords: result.navRecords,
  })}\n`,
);
