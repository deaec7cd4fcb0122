/**
 * One RINEX job in a worker thread: inflates the archive's hours, converts them with the gnss engine and zips the
 * observation file, the navigation file and the station's README. Everything that costs CPU happens here, never
 * on the API's event loop; the parent only moves stored bytes from the archive store to this thread, one chunk at
 * a time (each chunk is acknowledged before the next is sent, so memory stays flat).
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { decodeMembers } from '@portal/caster/archive';
import {
  ConversionError,
  type ConversionResult,
  convertRtcmToRinex,
  type RtcmSource,
  rinexObsFileName,
  utcToGpst,
} from '@portal/gnss';
import yazl from 'yazl';
import { stationReadme } from './rinex.readme.ts';
import type { ParentMessage, WorkerJob, WorkerMessage } from './rinex.worker-protocol.ts';

const port = parentPort;
if (!port) throw new Error('rinex.worker.ts runs as a worker thread');

const send = (message: WorkerMessage) => port.postMessage(message);

/** Messages from the parent, waited for one at a time. */
const inbox: ParentMessage[] = [];
let waiting: ((m: ParentMessage) => void) | null = null;
port.on('message', (m: ParentMessage) => {
  if (waiting) {
    const resolve = waiting;
    waiting = null;
    resolve(m);
  } else inbox.push(m);
});
const next = (): Promise<ParentMessage> => {
  const m = inbox.shift();
  return m ? Promise.resolve(m) : new Promise((resolve) => (waiting = resolve));
};

/** The stored bytes of one archived hour, as the parent reads them from the store. */
async function* storedHour(mountpoint: string, hour: number): AsyncGenerator<Buffer> {
  send({ type: 'read', mountpoint, hour });
  for (;;) {
    const m = await next();
    if (m.type === 'end') return;
    if (m.type === 'error') throw new Error(`archive store: ${m.message}`);
    yield Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength);
    send({ type: 'ack' });
  }
}

async function run(job: WorkerJob): Promise<void> {
  await mkdir(job.outDir, { recursive: true });
  let pass = 0;
  const damaged = { members: 0 };
  // convert reads its input twice (scan, then write): progress runs 0–0.45 over the first and 0.45–0.9 over the second.
  const input: RtcmSource = async function* () {
    const thisPass = pass++;
    for (const [i, h] of job.hours.entries()) {
      send({ type: 'progress', value: 0.45 * thisPass + (0.45 * i) / job.hours.length });
      yield* decodeMembers(storedHour(h.mountpoint, h.hour), () => {
        damaged.members++;
      });
    }
  };
  const systems = job.systems.split('') as Array<'G' | 'R' | 'E' | 'C' | 'J' | 'I' | 'S'>;
  const start = new Date(job.from);
  const period = (job.to - job.from) / 1000;
  const names = {
    obs: rinexObsFileName({
      station: job.station.mountpoint,
      country: job.station.country,
      start,
      period,
      interval: job.interval,
      kind: 'O',
      systems,
    }),
    nav: rinexObsFileName({
      station: job.station.mountpoint,
      country: job.station.country,
      start,
      period,
      kind: 'N',
      systems,
    }),
  };
  const obsPath = join(job.outDir, names.obs);
  const navPath = join(job.outDir, names.nav);
  let result: ConversionResult;
  try {
    result = await convertRtcmToRinex({
      input,
      approxTime: utcToGpst(job.from),
      interval: job.interval,
      systems: job.systems,
      window: { start: utcToGpst(job.from), end: utcToGpst(job.to) },
      obsOut: obsPath,
      navOut: navPath,
      marker: job.station.mountpoint,
      agency: job.station.networkOperator || job.station.networkName,
      runBy: job.runBy,
      createdAt: new Date(job.createdAt),
    });
  } catch (err) {
    if (err instanceof ConversionError) {
      send({ type: 'failed', code: `conversion_${err.code}`, message: err.message });
      return;
    }
    throw err;
  }
  send({ type: 'progress', value: 0.9 });
  const warnings = [...result.warnings];
  if (damaged.members > 0) warnings.push(`${damaged.members} damaged part(s) of the archive were skipped`);
  const readme = stationReadme(job, result, names, warnings);
  const zipName = names.obs.replace(/\.rnx$/, '.zip');
  const zipPath = join(job.outDir, 'result.zip');
  const zip = new yazl.ZipFile();
  zip.addFile(obsPath, names.obs);
  zip.addFile(navPath, names.nav);
  zip.addBuffer(Buffer.from(readme), 'README.txt');
  const out = createWriteStream(zipPath);
  const written = new Promise<void>((resolve, reject) => {
    out.on('close', resolve);
    out.on('error', reject);
    zip.outputStream.on('error', reject);
  });
  zip.outputStream.pipe(out);
  zip.end();
  await written;
  send({
    type: 'done',
    zipPath,
    zipName,
    epochs: result.epochs,
    files: [names.obs, names.nav, 'README.txt'],
  });
}

const job = workerData as WorkerJob;
run(job).catch((err: unknown) => {
  send({ type: 'crashed', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
});
