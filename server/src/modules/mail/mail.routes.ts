import {
  type MailLocale,
  notificationPreferencesSchema,
  type OptionalMailTopic,
  outboxPageSchema,
  outboxQuerySchema,
  unsubscribeQuerySchema,
  updateNotificationPreferencesSchema,
} from '@portal/contract';
import type { Brand } from '@portal/contract/brand-schema';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../http/auth.ts';
import { iso } from '../../shared/iso.ts';
import type { MailRepo } from './mail.repo.ts';
import type { Mailer } from './mail.service.ts';
import type { UnsubscribeSigner } from './mail.unsubscribe.ts';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const TOPIC_NAMES: Record<MailLocale, Record<OptionalMailTopic, string>> = {
  en: {
    accessEnding: 'access to a network ending or ended',
    lowBalance: 'low token balance',
    renewalFailed: 'subscription renewal failed',
    rinexReady: 'RINEX download ready',
    membership: 'organisation membership changes',
    stationAlerts: 'outages of the stations your rovers use',
  },
  nl: {
    accessEnding: 'toegang tot een netwerk die eindigt of is beëindigd',
    lowBalance: 'laag tokensaldo',
    renewalFailed: 'mislukte verlenging van een abonnement',
    rinexReady: 'RINEX-download staat klaar',
    membership: 'wijzigingen in je lidmaatschap van organisaties',
    stationAlerts: 'storingen van de stations die je rovers gebruiken',
  },
};

const PAGE_TEXT = {
  en: {
    confirmTitle: 'Unsubscribe',
    confirm: (topic: string) => `Stop the mails about ${topic}?`,
    button: 'Unsubscribe',
    doneTitle: 'Unsubscribed',
    done: (topic: string) =>
      `You will no longer receive mails about ${topic}. You can turn them on again in your settings.`,
    invalidTitle: 'Link not valid',
    invalid: 'This unsubscribe link is not valid. You can change which mails you receive in your settings.',
    settings: 'Notification settings',
  },
  nl: {
    confirmTitle: 'Afmelden',
    confirm: (topic: string) => `Geen mails meer over ${topic}?`,
    button: 'Afmelden',
    doneTitle: 'Afgemeld',
    done: (topic: string) => `Je ontvangt geen mails meer over ${topic}. Je kunt ze weer aanzetten in je instellingen.`,
    invalidTitle: 'Link ongeldig',
    invalid: 'Deze afmeldlink is niet geldig. In je instellingen kies je welke mails je ontvangt.',
    settings: 'Meldingsinstellingen',
  },
};

/** The confirmation page is the API's own, so it works without the SPA, JavaScript or a sign-in. */
const PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function mailRoutes(deps: {
  mailer: Mailer;
  repo: MailRepo;
  signer: UnsubscribeSigner;
  brand: Brand;
  publicUrl: string;
  smtp: boolean;
}): FastifyPluginAsyncZod {
  const { mailer, repo, signer, brand } = deps;

  function page(reply: FastifyReply, status: number, locale: MailLocale, title: string, body: string) {
    const colors = brand.paymentWidgetColors;
    const settings = new URL('/settings', deps.publicUrl).toString();
    return reply
      .status(status)
      .header('content-security-policy', PAGE_POLICY)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(`<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><meta name="robots" content="noindex">
<title>${escapeHtml(title)} · ${escapeHtml(brand.name)}</title></head>
<body style="margin:0;font-family:Arial,Helvetica,sans-serif;background:${colors.colorBackground};color:${colors.colorText}">
<main style="max-width:480px;margin:48px auto;padding:24px;border:1px solid ${colors.colorBorder};border-radius:12px">
<p style="margin:0 0 16px;font-weight:bold">${escapeHtml(brand.name)}</p>
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>
${body}
<p style="margin-top:24px;font-size:13px"><a style="color:${brand.darkModePrimaryColor}" href="${escapeHtml(settings)}">${escapeHtml(PAGE_TEXT[locale].settings)}</a></p>
</main></body></html>
`);
  }

  return async (app) => {
    // RFC 8058: the mail client's one-click unsubscribe is a form POST (List-Unsubscribe=One-Click).
    app.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'multipart/form-data'],
      { parseAs: 'string', bodyLimit: 16 * 1024 },
      (_req, _body, done) => done(null, {}),
    );

    app.get(
      '/admin/outbox',
      {
        config: { auth: 'admin' },
        schema: { tags: ['admin'], querystring: outboxQuerySchema, response: { 200: outboxPageSchema } },
      },
      async (request) => {
        const { limit, offset } = request.query;
        const { rows, total } = await repo.page(limit, offset);
        return {
          items: rows.map((r) => ({
            id: r.id,
            kind: r.kind,
            recipient: r.recipient,
            locale: r.locale,
            subject: r.subject,
            text: r.text_body,
            status: r.status,
            transport: r.transport,
            attempts: r.attempts,
            lastError: r.last_error,
            createdAt: iso(r.created_at),
            sentAt: r.sent_at ? iso(r.sent_at) : null,
          })),
          total,
          limit,
          offset,
          smtp: deps.smtp,
        };
      },
    );

    app.get(
      '/user/notifications',
      { config: { auth: 'user' }, schema: { tags: ['user'], response: { 200: notificationPreferencesSchema } } },
      (request) => mailer.preferences(actorOf(request).userId),
    );

    app.put(
      '/user/notifications',
      {
        config: { auth: 'user' },
        schema: {
          tags: ['user'],
          body: updateNotificationPreferencesSchema,
          response: { 200: notificationPreferencesSchema },
        },
      },
      (request) => mailer.updatePreferences(actorOf(request).userId, request.body),
    );

    const unsubscribeSchema = { hide: true, querystring: unsubscribeQuerySchema };

    async function tokenOf(token: string) {
      const signed = signer.verify(token);
      if (!signed) return undefined;
      const preferences = await repo.preferences(signed.userId).catch(() => undefined);
      // A user deleted since has no preferences left to change.
      if (!preferences || !(await repo.userEmail(signed.userId))) return undefined;
      return { ...signed, locale: preferences.locale };
    }

    app.get('/mail/unsubscribe', { schema: unsubscribeSchema }, async (request, reply) => {
      const signed = await tokenOf(request.query.token);
      if (!signed) return page(reply, 404, 'en', PAGE_TEXT.en.invalidTitle, `<p>${PAGE_TEXT.en.invalid}</p>`);
      const text = PAGE_TEXT[signed.locale];
      const topic = TOPIC_NAMES[signed.locale][signed.topic];
      // A GET changes nothing: link scanners in mail systems open every link.
      return page(
        reply,
        200,
        signed.locale,
        text.confirmTitle,
        `<p>${escapeHtml(text.confirm(topic))}</p>
<form method="post" action="?token=${encodeURIComponent(request.query.token)}"><button type="submit" style="padding:10px 18px;border:0;border-radius:8px;background:${brand.darkModePrimaryColor};color:${brand.onPrimaryColor};font-weight:bold;cursor:pointer">${escapeHtml(text.button)}</button></form>`,
      );
    });

    app.post('/mail/unsubscribe', { schema: unsubscribeSchema }, async (request, reply) => {
      const signed = await tokenOf(request.query.token);
      if (!signed) return page(reply, 404, 'en', PAGE_TEXT.en.invalidTitle, `<p>${PAGE_TEXT.en.invalid}</p>`);
      await mailer.updatePreferences(signed.userId, { [signed.topic]: false });
      const text = PAGE_TEXT[signed.locale];
      return page(
        reply,
        200,
        signed.locale,
        text.doneTitle,
        `<p>${escapeHtml(text.done(TOPIC_NAMES[signed.locale][signed.topic]))}</p>`,
      );
    });
  };
}
