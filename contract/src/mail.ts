import { z } from 'zod';
import { pageQueryFields, pageSchema } from './paging.ts';

/**
 * The portal's e-mail (issue 21, docs/adr/0025-mail.md): notification preferences in /settings, the one-click
 * unsubscribe, and the admins' outbox.
 */

export const MAIL_LOCALES = ['en', 'nl'] as const;
export type MailLocale = (typeof MAIL_LOCALES)[number];

/** The mails a user may turn off; invitations and payment receipts are always sent. */
export const OPTIONAL_MAIL_TOPICS = [
  'accessEnding',
  'lowBalance',
  'renewalFailed',
  'rinexReady',
  'membership',
  'stationAlerts',
] as const;
export type OptionalMailTopic = (typeof OPTIONAL_MAIL_TOPICS)[number];

export const LOW_BALANCE_THRESHOLD_MAX = 100_000_000;

export const notificationPreferencesSchema = z.object({
  locale: z.enum(MAIL_LOCALES),
  accessEnding: z.boolean(),
  lowBalance: z.boolean(),
  lowBalanceThreshold: z.number().int().min(0).max(LOW_BALANCE_THRESHOLD_MAX),
  renewalFailed: z.boolean(),
  rinexReady: z.boolean(),
  membership: z.boolean(),
  /** A station or network that served my rovers in the last 30 days is down or failing, and back (issue 33). */
  stationAlerts: z.boolean(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

/** PUT /api/user/notifications: any subset; what is left out stays as it was. */
export const updateNotificationPreferencesSchema = notificationPreferencesSchema.partial().strict();
export type UpdateNotificationPreferences = z.infer<typeof updateNotificationPreferencesSchema>;

/** The signed token of an unsubscribe link: which user, which topic. */
export const unsubscribeQuerySchema = z.object({ token: z.string().min(1).max(512) });

export const OUTBOX_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;
export const outboxMailSchema = z.object({
  id: z.string(),
  kind: z.string(),
  recipient: z.string(),
  locale: z.enum(MAIL_LOCALES),
  subject: z.string(),
  text: z.string(),
  status: z.enum(OUTBOX_STATUSES),
  /** smtp, or log when the portal has no SMTP server and keeps mail only here. */
  transport: z.enum(['smtp', 'log']).nullable(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type OutboxMail = z.infer<typeof outboxMailSchema>;

export const OUTBOX_PAGE_SIZE = 50;
export const outboxQuerySchema = z.object(pageQueryFields({ defaultLimit: OUTBOX_PAGE_SIZE, maxLimit: 200 }));
export type OutboxQuery = z.input<typeof outboxQuerySchema>;
export const outboxPageSchema = pageSchema(outboxMailSchema).extend({
  /** False: no SMTP_URL, so mail is only kept here and written to the server log. */
  smtp: z.boolean(),
});
export type OutboxPage = z.infer<typeof outboxPageSchema>;
