import type { MailLocale, NotificationPreferences, OptionalMailTopic } from '@portal/contract';
import type { Brand } from '@portal/contract/brand-schema';
import type { Database } from '../../db/client.ts';
import type { MailRepo } from './mail.repo.ts';
import { type MailContent, type MailKind, renderMail } from './mail.templates.ts';
import type { UnsubscribeSigner } from './mail.unsubscribe.ts';

/** Which preference turns a kind of mail off; invitations and receipts have none, they are always sent. */
export const TOPIC_OF: Record<MailKind, OptionalMailTopic | null> = {
  invitation: null,
  receipt: null,
  renewal_failed: 'renewalFailed',
  access_ending: 'accessEnding',
  access_ended: 'accessEnding',
  low_balance: 'lowBalance',
  rinex_ready: 'rinexReady',
  membership: 'membership',
  station_down: 'stationAlerts',
  station_up: 'stationAlerts',
};

export const UNSUBSCRIBE_PATH = '/api/mail/unsubscribe';

export interface QueueRequest {
  /** One per event: queueing the same key again adds nothing (the mail is never sent twice). */
  key: string;
  content: MailContent;
  /** The user it is for: their address, language and preferences apply. */
  userId?: string;
  /** An address without a user (an invitation to someone not registered); the language falls back to `locale`. */
  recipient?: string;
  locale?: MailLocale;
  /** Facts for attachments made at sending time (the receipt's payment id). */
  data?: Record<string, unknown>;
}

export type Mailer = ReturnType<typeof createMailer>;

/**
 * Queues mail in the caller's transaction, so the mail exists exactly when the event that caused it does; the
 * worker sends it after the commit. Nothing here talks to a mail server, so queueing cannot fail the action for
 * a reason of the mail's own.
 */
export function createMailer(deps: {
  repo: MailRepo;
  brand: Brand;
  publicUrl: string;
  signer: UnsubscribeSigner;
  /** Called after queueing, so the worker looks soon (it also polls). */
  wake?: () => void;
  log?: { error(obj: object, msg: string): void };
  /** True when queued mail goes to a mail server (SMTP), false when it only stays in the outbox. */
  delivers?: boolean;
  /** Told of every notice in its transaction before the mail preferences apply (webhooks, issue 37). */
  observe?: (trx: Database, request: QueueRequest) => Promise<void>;
}) {
  const { repo } = deps;
  return {
    /** Whether a queued mail reaches its recipient: false without SMTP_URL (kept in the outbox, docs/adr/0025). */
    delivers: deps.delivers ?? false,
    /** True when a mail was queued; false when the user turned it off, has no address, or the key was used. */
    async queue(trx: Database, request: QueueRequest): Promise<boolean> {
      await deps.observe?.(trx, request);
      const topic = TOPIC_OF[request.content.kind];
      let preferences: NotificationPreferences | undefined;
      let recipient = request.recipient;
      if (request.userId) {
        preferences = await repo.preferences(request.userId, trx);
        if (topic && !preferences[topic]) return false;
        recipient ??= (await repo.userEmail(request.userId, trx)) ?? undefined;
      }
      if (!recipient) return false;
      const locale = preferences?.locale ?? request.locale ?? 'en';
      const unsubscribeUrl =
        topic && request.userId
          ? `${new URL(UNSUBSCRIBE_PATH, deps.publicUrl)}?token=${deps.signer.sign(request.userId, topic)}`
          : undefined;
      let rendered: ReturnType<typeof renderMail>;
      try {
        rendered = renderMail(request.content, {
          brand: deps.brand,
          locale,
          publicUrl: deps.publicUrl,
          unsubscribeUrl,
        });
      } catch (err) {
        // A template's fault must not undo the payment or the invite it reports.
        deps.log?.error({ err, key: request.key }, 'mail could not be rendered; not queued');
        return false;
      }
      const added = await repo.enqueue(
        {
          idempotencyKey: request.key,
          kind: request.content.kind,
          userId: request.userId ?? null,
          recipient,
          locale,
          subject: rendered.subject,
          text: rendered.text,
          html: rendered.html,
          // RFC 8058: the mail client's one-click POST goes to the same signed address.
          headers: unsubscribeUrl
            ? { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
            : {},
          data: request.data ?? {},
        },
        trx,
      );
      if (added) setTimeout(() => deps.wake?.(), 0).unref();
      return added;
    },
    preferences: (userId: string) => repo.preferences(userId),
    async updatePreferences(userId: string, patch: Partial<NotificationPreferences>) {
      await repo.updatePreferences(userId, patch);
      return repo.preferences(userId);
    },
  };
}
