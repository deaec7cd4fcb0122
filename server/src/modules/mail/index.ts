import { resolveBrand } from '@portal/contract/brand';
import type { FastifyPluginAsync } from 'fastify';
import type { Database } from '../../db/client.ts';
import {
  type BalanceNotice,
  type BillingNotices,
  createAccessNotices,
  createBalanceNotice,
  createBillingNotices,
  createRinexNotice,
} from './mail.notices.ts';
import { createMailRepo, type MailRepo } from './mail.repo.ts';
import { mailRoutes } from './mail.routes.ts';
import { createMailer, type Mailer, type QueueRequest } from './mail.service.ts';
import { createStationAlerts, type WebhookEventSink } from './mail.station-alerts.ts';
import { logTransport, type MailTransport, smtpTransport } from './mail.transport.ts';
import { createUnsubscribeSigner } from './mail.unsubscribe.ts';
import { type AttachmentSource, createMailWorker, type MailWorker, type WorkerLog } from './mail.worker.ts';

export type { BillingNotices } from './mail.notices.ts';

export type { Mailer, QueueRequest } from './mail.service.ts';
export type { MailContent } from './mail.templates.ts';
export type { AttachmentSource, MailWorker } from './mail.worker.ts';

export interface MailOptions {
  /** SMTP_URL; without it mail is kept in the outbox and written to the log. */
  smtpUrl?: string;
  /** A transport of one's own (tests); wins over smtpUrl. */
  transport?: MailTransport;
  /** VITE_BRAND: the brand whose name, logo and colours the mails carry. */
  brand?: string;
  /** MAIL_FROM; by default the brand's name at no-reply@ the PUBLIC_URL's host. */
  from?: string;
  attachments?: Partial<Record<string, AttachmentSource>>;
  clock?: () => Date;
  pollMs?: number;
  leaseMs?: number;
  backoffMs?: number;
  maxAttempts?: number;
  /** False: no worker in this process (tests that play a process dying before it sends). */
  send?: boolean;
  /** How often access that ends or ended is looked for (10 minutes); false: never (tests that run it themselves). */
  accessCheckMs?: number | false;
  /** How often station outages are looked for (a minute); false: never (tests that run it themselves). */
  stationAlertCheckMs?: number | false;
  /** STATION_ALERT_GRACE_SECONDS: a station out of order for less than this is not announced (5 minutes). */
  stationAlertGraceMs?: number;
}

/** Who else hears of each notice, in its transaction (the webhooks module). */
export type NoticeObserver = (trx: Database, request: QueueRequest) => Promise<void>;

export interface MailModule {
  mailer: Mailer;
  worker: MailWorker;
  repo: MailRepo;
  routes: FastifyPluginAsync;
  notices: {
    billing: BillingNotices;
    balance: BalanceNotice;
    access: ReturnType<typeof createAccessNotices>;
    rinexReady: ReturnType<typeof createRinexNotice>;
    stations: ReturnType<typeof createStationAlerts>;
  };
  close(): Promise<void>;
}

/** Composition of the mail module: outbox repo, mailer (queueing), worker (sending) and routes. */
export function createMailModule(
  db: Database,
  deps: {
    secretKey: string;
    publicUrl: string;
    log: WorkerLog;
    observe?: NoticeObserver;
    /** Where the outage check reports station and network down/up to webhooks. */
    events?: WebhookEventSink;
  },
  options: MailOptions = {},
): MailModule {
  const brand = resolveBrand(options.brand);
  const repo = createMailRepo(db);
  const signer = createUnsubscribeSigner(deps.secretKey);
  const host = new URL(deps.publicUrl).hostname;
  const transport = options.transport ?? (options.smtpUrl ? smtpTransport(options.smtpUrl) : logTransport(deps.log));
  const worker = createMailWorker({
    repo,
    transport,
    from: options.from ?? `"${brand.name.replace(/["\\]/g, '')}" <no-reply@${host}>`,
    messageIdHost: host,
    attachments: options.attachments,
    clock: options.clock,
    log: deps.log,
    pollMs: options.pollMs,
    leaseMs: options.leaseMs,
    backoffMs: options.backoffMs,
    maxAttempts: options.maxAttempts,
  });
  const send = options.send !== false;
  const mailer = createMailer({
    repo,
    brand,
    publicUrl: deps.publicUrl,
    signer,
    wake: send ? () => worker.kick() : undefined,
    log: deps.log,
    delivers: transport.kind === 'smtp',
    observe: deps.observe,
  });
  if (send) worker.start();
  const access = createAccessNotices({
    db,
    mailer,
    clock: options.clock,
    log: deps.log,
    intervalMs: options.accessCheckMs || undefined,
  });
  if (options.accessCheckMs !== false) access.start();
  const stations = createStationAlerts({
    db,
    mailer,
    clock: options.clock,
    log: deps.log,
    graceMs: options.stationAlertGraceMs,
    intervalMs: options.stationAlertCheckMs || undefined,
    events: deps.events,
  });
  if (options.stationAlertCheckMs !== false) stations.start();
  return {
    mailer,
    worker,
    repo,
    notices: {
      billing: createBillingNotices(mailer),
      balance: createBalanceNotice(mailer, repo),
      access,
      rinexReady: createRinexNotice(mailer),
      stations,
    },
    async close() {
      await access.close();
      await stations.close();
      await worker.close();
    },
    routes: mailRoutes({
      mailer,
      repo,
      signer,
      brand,
      publicUrl: deps.publicUrl,
      smtp: transport.kind === 'smtp',
    }) as unknown as FastifyPluginAsync,
  };
}
