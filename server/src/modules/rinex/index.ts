import type { ArchiveStore } from '@portal/caster/archive';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.ts';
import { selectArchiveHours } from '../archive/index.ts';
import type { OrganizationRoles } from '../billing/index.ts';
import { createLinkSigner } from './rinex.links.ts';
import { createRinexRepo } from './rinex.repo.ts';
import { localResultStore, type RinexResultStore } from './rinex.results.ts';
import { rinexRoutes } from './rinex.routes.ts';
import { createRinexRunner, type RinexRunner, type RinexRunnerOptions, type RunnerLog } from './rinex.runner.ts';
import { createRinexService, type RinexLedger, type RinexService } from './rinex.service.ts';

export { localResultStore, type RinexResultStore } from './rinex.results.ts';

export interface RinexOptions {
  /** The RTCM archive the jobs read (the caster's store: local directory or NATS). */
  store?: ArchiveStore | null;
  /** Where finished zips are kept (RINEX_RESULTS_DIR); or a store of one's own. */
  resultsDir?: string;
  results?: RinexResultStore;
  clock?: () => Date;
  /** Jobs converted at once by this process. */
  concurrency?: number;
  pollMs?: number;
  staleMs?: number;
  workDir?: string;
}

export interface RinexModule {
  service: RinexService;
  runner: RinexRunner;
  routes: FastifyPluginAsync;
}

/** Composition of the RINEX module: repo, service, job runner (worker threads) and routes. */
export function createRinexModule(
  db: Database,
  deps: {
    ledger: RinexLedger;
    organizations: OrganizationRoles;
    /** FEED_SECRET_KEY: the signed links' key is derived from it. */
    secretKey: string;
    publicUrl: string;
    log?: RunnerLog;
    /** Queues the "download ready" mail in the transaction that finishes a job. */
    finished?: RinexRunnerOptions['finished'];
  },
  options: RinexOptions = {},
): RinexModule {
  const repo = createRinexRepo(db);
  const results = options.results ?? localResultStore(options.resultsDir ?? 'data/rinex');
  let runner: RinexRunner | null = null;
  const service = createRinexService({
    repo,
    ledger: deps.ledger,
    organizations: deps.organizations,
    results,
    signer: createLinkSigner(deps.secretKey),
    queue: { kick: () => runner?.kick() },
    publicUrl: deps.publicUrl,
    clock: options.clock,
  });
  runner = createRinexRunner({
    repo,
    store: options.store,
    results,
    fail: (jobId, error) => service.fail(jobId, error),
    station: (job) => repo.station(job.mountpoint),
    // Frames are filed by arrival: the epochs at the end of the window may be in the next hour's file.
    hoursToRead: async (job) =>
      (await selectArchiveHours(db, job.mountpoint, job.window_start, job.window_end))?.keys ?? null,
    clock: options.clock,
    log: deps.log,
    finished: deps.finished,
    concurrency: options.concurrency,
    pollMs: options.pollMs,
    staleMs: options.staleMs,
    workDir: options.workDir,
  });
  return { service, runner, routes: rinexRoutes(service) as unknown as FastifyPluginAsync };
}
