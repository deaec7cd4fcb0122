import { createHash } from 'node:crypto';
import type { ClaimedMail, MailRepo } from './mail.repo.ts';
import type { MailAttachment, MailTransport } from './mail.transport.ts';

export interface WorkerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Files a kind of mail carries, made when it is sent (the receipt's invoice): the seam for the billing module. */
export type AttachmentSource = (mail: ClaimedMail) => Promise<MailAttachment[]>;

export interface MailWorkerOptions {
  repo: MailRepo;
  transport: MailTransport;
  from: string;
  /** The host part of the Message-ID, which is derived from the idempotency key. */
  messageIdHost: string;
  attachments?: Partial<Record<string, AttachmentSource>>;
  clock?: () => Date;
  log?: WorkerLog;
  pollMs?: number;
  /** How long a claimed mail is held; past it a mail whose worker died is due again. */
  leaseMs?: number;
  /** The first retry's delay; each further one doubles, up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  maxAttempts?: number;
}

export type MailWorker = ReturnType<typeof createMailWorker>;

const silent: WorkerLog = { info() {}, warn() {}, error() {} };

/**
 * Sends the outbox, one mail at a time per process: claims a due mail (a lease, not a lock held across the
 * network call), sends it, marks it sent, or schedules the next try with exponential backoff.
 */
export function createMailWorker(options: MailWorkerOptions) {
  const { repo, transport } = options;
  const clock = options.clock ?? (() => new Date());
  const log = options.log ?? silent;
  const pollMs = options.pollMs ?? 5_000;
  const leaseMs = options.leaseMs ?? 120_000;
  const backoffMs = options.backoffMs ?? 30_000;
  const maxBackoffMs = options.maxBackoffMs ?? 3_600_000;
  const maxAttempts = options.maxAttempts ?? 10;
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;

  /** The same key gives the same Message-ID, so a receiver can drop the copy a crash after sending may cause. */
  const messageIdOf = (key: string) =>
    `<${createHash('sha256').update(key).digest('hex').slice(0, 32)}@${options.messageIdHost}>`;

  async function deliver(mail: ClaimedMail): Promise<void> {
    const messageId = messageIdOf(mail.idempotency_key);
    try {
      const attachments = (await options.attachments?.[mail.kind]?.(mail)) ?? [];
      await transport.send({
        from: options.from,
        to: mail.recipient,
        subject: mail.subject,
        text: mail.text_body,
        html: mail.html_body,
        headers: mail.headers,
        messageId,
        attachments,
      });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const retryAt =
        mail.attempts >= maxAttempts
          ? null
          : new Date(clock().getTime() + Math.min(maxBackoffMs, backoffMs * 2 ** (mail.attempts - 1)));
      log.warn({ mailId: mail.id, kind: mail.kind, attempt: mail.attempts, retryAt, err: message }, 'mail not sent');
      await repo.markFailed(mail.id, message, retryAt);
      return;
    }
    await repo.markSent(mail.id, transport.kind, messageId, clock());
    log.info({ mailId: mail.id, kind: mail.kind, transport: transport.kind }, 'mail sent');
  }

  async function drain(): Promise<void> {
    while (!closed) {
      const now = clock();
      const mail = await repo.claim(now, new Date(now.getTime() + leaseMs));
      if (!mail) return;
      await deliver(mail);
    }
  }

  /** Looks for due mail now: after a mail is queued, and on the timer. */
  function kick(): void {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((err) => log.error({ err }, 'mail outbox could not be read'))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          kick();
        }
      });
  }

  return {
    kick,
    messageIdOf,
    start(): void {
      if (timer || closed) return;
      timer = setInterval(kick, pollMs);
      timer.unref();
      kick();
    },
    /** Waits until nothing due is left being sent (tests). */
    async idle(): Promise<void> {
      while (running) await running;
    },
    async close(): Promise<void> {
      closed = true;
      if (timer) clearInterval(timer);
      timer = null;
      if (running) await running;
      transport.close();
    },
  };
}
