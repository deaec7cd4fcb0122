import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ArchiveStore } from '@portal/caster/archive';
import { describeReferenceFrame, RINEX_RESULT_DAYS } from '@portal/contract';
import type { Database } from '../../db/client.ts';
import type { JobRow, RinexRepo, StationRow } from './rinex.repo.ts';
import type { RinexResultStore } from './rinex.results.ts';
import type { ParentMessage, WorkerJob, WorkerMessage } from './rinex.worker-protocol.ts';

const WORKER_ENTRY = new URL('./rinex.worker-entry.mjs', import.meta.url);
const DAY_MS = 86_400_000;

export interface RunnerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface RinexRunnerOptions {
  repo: RinexRepo;
  /** The RTCM archive; without one every job fails (and is refunded). */
  store: ArchiveStore | null | undefined;
  results: RinexResultStore;
  /** Marks the job failed and gives its tokens back, in one transaction (the service's). */
  fail(jobId: string, error: { code: string; message: string }): Promise<void>;
  station(job: JobRow): Promise<StationRow | undefined>;
  /** The stored hours to read for the job's window (with the margin arrival times need); the job's own by default. */
  hoursToRead?(job: JobRow): Promise<Array<{ mountpoint: string; hour: number }> | null>;
  clock?: () => Date;
  log?: RunnerLog;
  /** Jobs converted at once by this process (each in its own worker thread). */
  concurrency?: number;
  /** How often the queue is looked at for jobs made by other processes, and results past their time removed. */
  pollMs?: number;
  /** A running job whose runner has not renewed its heartbeat for this long is taken over. */
  staleMs?: number;
  /** Tries per job before it fails for good (a worker that crashes, a process that dies with it). */
  maxAttempts?: number;
  workDir?: string;
  /** PGM / RUN BY / DATE's "run by". */
  runBy?: string;
  /** Told in the transaction that marks a job done (the mail that its download is ready). */
  finished?(trx: Database, job: JobRow, expiresAt: Date): Promise<void>;
}

export type RinexRunner = ReturnType<typeof createRinexRunner>;

const silent: RunnerLog = { info() {}, warn() {}, error() {} };

/**
 * Runs queued RINEX jobs in worker threads. Jobs are claimed from the database (FOR UPDATE SKIP LOCKED), so
 * several API processes can share the queue, and one that dies leaves its jobs to be taken over after `staleMs`.
 */
export function createRinexRunner(options: RinexRunnerOptions) {
  const { repo, results } = options;
  const clock = options.clock ?? (() => new Date());
  const log = options.log ?? silent;
  const concurrency = options.concurrency ?? 1;
  const pollMs = options.pollMs ?? 2_000;
  const staleMs = options.staleMs ?? 120_000;
  const maxAttempts = options.maxAttempts ?? 3;
  const workDir = options.workDir ?? join(tmpdir(), 'portal-rinex');
  const running = new Map<string, Promise<void>>();
  const workers = new Set<Worker>();
  let claiming: Promise<void> | null = null;
  let again = false;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;

  /** Streams the stored bytes of one hour to the worker; each chunk waits for the worker's acknowledgement. */
  async function serveHour(worker: Worker, acks: { wait(): Promise<void> }, mountpoint: string, hour: number) {
    const send = (m: ParentMessage) => worker.postMessage(m);
    if (!options.store) {
      send({ type: 'error', message: 'no archive store is configured' });
      return;
    }
    try {
      for await (const chunk of options.store.read({ mountpoint, hour })) {
        send({ type: 'chunk', data: chunk });
        await acks.wait();
      }
      send({ type: 'end' });
    } catch (err) {
      send({ type: 'error', message: err instanceof Error ? err.message : String(err) });
    }
  }

  async function convert(
    job: JobRow,
    station: StationRow,
    outDir: string,
    state: { progress: number },
  ): Promise<WorkerMessage> {
    const hours =
      (await options.hoursToRead?.(job)) ??
      job.hours.map((h) => ({ mountpoint: h.mountpoint, hour: Date.parse(h.hour) }));
    const data: WorkerJob = {
      id: job.id,
      hours,
      from: job.window_start.getTime(),
      to: job.window_end.getTime(),
      interval: job.interval_seconds,
      systems: job.systems,
      outDir,
      createdAt: clock().toISOString(),
      runBy: options.runBy ?? '',
      station: {
        mountpoint: job.mountpoint,
        identifier: station.identifier,
        country: station.country,
        networkName: station.network_name,
        networkOperator: station.network_operator,
        referenceFrame: station.network_reference_frame && describeReferenceFrame(station.network_reference_frame),
        latitude: Number(station.latitude),
        longitude: Number(station.longitude),
        heightM: station.height_m === null ? null : Number(station.height_m),
        receiver: station.receiver,
        antenna: station.antenna,
      },
    };
    return new Promise((resolve) => {
      const worker = new Worker(WORKER_ENTRY, { workerData: data });
      workers.add(worker);
      let settled = false;
      let lastBeat = 0;
      const settle = (m: WorkerMessage) => {
        if (settled) return;
        settled = true;
        workers.delete(worker);
        void worker.terminate();
        resolve(m);
      };
      let ackWaiter: (() => void) | null = null;
      const acks = {
        wait: () =>
          new Promise<void>((r) => {
            ackWaiter = r;
          }),
      };
      worker.on('message', (m: WorkerMessage) => {
        if (m.type === 'ack') {
          const r = ackWaiter;
          ackWaiter = null;
          r?.();
        } else if (m.type === 'read') void serveHour(worker, acks, m.mountpoint, m.hour);
        else if (m.type === 'progress') {
          state.progress = Math.min(1, Math.max(0, m.value));
          const now = clock();
          if (now.getTime() - lastBeat >= 1000) {
            lastBeat = now.getTime();
            void repo.heartbeat(job.id, state.progress, now).catch(() => {});
          }
        } else settle(m);
      });
      worker.on('error', (err) => settle({ type: 'crashed', message: err.stack ?? err.message }));
      worker.on('exit', (code) => settle({ type: 'crashed', message: `worker exited with code ${code}` }));
    });
  }

  async function runJob(job: JobRow): Promise<void> {
    const outDir = join(workDir, `${job.id}-${randomUUID()}`);
    const state = { progress: 0 };
    const beat = setInterval(() => void repo.heartbeat(job.id, state.progress, clock()).catch(() => {}), staleMs / 4);
    beat.unref();
    try {
      const station = await options.station(job);
      if (!station) {
        await options.fail(job.id, { code: 'station_gone', message: 'The station no longer exists.' });
        return;
      }
      const outcome = await convert(job, station, outDir, state);
      if (closed && outcome.type === 'crashed') {
        // Stopped by close(), not by the data: another process (or the next start) converts it.
        await repo.requeue(job.id);
        return;
      }
      if (outcome.type === 'done') {
        await results.put(job.id, outcome.zipPath);
        const opened = await results.open(job.id);
        const bytes = opened?.bytes ?? 0;
        opened?.stream.destroy();
        const now = clock();
        const expiresAt = new Date(now.getTime() + RINEX_RESULT_DAYS * DAY_MS);
        await repo.transaction(async (trx) => {
          await repo.finishJob(
            job.id,
            { name: outcome.zipName, bytes, epochs: outcome.epochs, files: outcome.files },
            now,
            expiresAt,
            trx,
          );
          await options.finished?.(trx, job, expiresAt);
        });
        log.info({ jobId: job.id, epochs: outcome.epochs, bytes }, 'rinex job done');
      } else if (outcome.type === 'failed') {
        await options.fail(job.id, { code: outcome.code, message: outcome.message });
      } else if (outcome.type === 'crashed') {
        log.error({ jobId: job.id, attempt: job.attempts, cause: outcome.message }, 'rinex conversion crashed');
        await options.fail(job.id, {
          code: 'conversion_failed',
          message: 'The conversion failed. Your tokens were given back.',
        });
      }
    } catch (err) {
      log.error({ jobId: job.id, err }, 'rinex job failed');
      await options
        .fail(job.id, { code: 'conversion_failed', message: 'The conversion failed. Your tokens were given back.' })
        .catch((e) => log.error({ jobId: job.id, err: e }, 'rinex job could not be marked failed'));
    } finally {
      clearInterval(beat);
      await rm(outDir, { recursive: true, force: true }).catch(() => {});
    }
  }

  async function claimAll(): Promise<void> {
    while (!closed && running.size < concurrency) {
      const now = clock();
      const job = await repo.claimJob(now, new Date(now.getTime() - staleMs));
      if (!job) return;
      if (job.attempts > maxAttempts) {
        await options.fail(job.id, {
          code: 'conversion_failed',
          message: 'The conversion failed repeatedly. Your tokens were given back.',
        });
        continue;
      }
      const run = runJob(job).finally(() => {
        running.delete(job.id);
        kick();
      });
      running.set(job.id, run);
    }
  }

  /** Looks for work now: after a job is made, after one ends, and on the timer. */
  function kick(): void {
    if (closed) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = claimAll()
      .catch((err) => log.error({ err }, 'rinex queue could not be read'))
      .finally(() => {
        claiming = null;
        if (again) {
          again = false;
          kick();
        }
      });
  }

  async function expireResults(): Promise<void> {
    for (const { id } of await repo.expiredResults(clock())) {
      await results.remove(id);
      await repo.markExpired(id);
    }
  }

  return {
    kick,
    start(): void {
      if (timer || closed) return;
      timer = setInterval(() => {
        kick();
        void expireResults().catch((err) => log.warn({ err }, 'expired rinex results could not be removed'));
      }, pollMs);
      timer.unref();
      kick();
    },
    /** Waits until nothing is queued, running or being claimed (tests). */
    async idle(): Promise<void> {
      for (;;) {
        if (claiming) await claiming;
        if (running.size === 0 && !claiming) return;
        await Promise.allSettled([...running.values()]);
      }
    },
    expireResults,
    async close(): Promise<void> {
      closed = true;
      if (timer) clearInterval(timer);
      timer = null;
      if (claiming) await claiming;
      for (const worker of workers) void worker.terminate();
      await Promise.allSettled([...running.values()]);
    },
  };
}
