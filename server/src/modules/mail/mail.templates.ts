import { formatMoney, type MailLocale } from '@portal/contract';
import type { Brand } from '@portal/contract/brand-schema';

/**
 * The mails' words and layout, per brand and language. Values from users (names, organisations, addresses) are
 * escaped in the HTML part; the plain-text part carries them as they are.
 */

export type MailContent =
  | { kind: 'invitation'; organizationName: string; inviter: string; link: string }
  | {
      kind: 'receipt';
      description: string;
      amount: number;
      currency: string;
      paidAt: string;
      invoiceNumber: string | null;
      invoiceUrl: string | null;
    }
  | { kind: 'renewal_failed'; description: string; amount: number; currency: string; invoiceUrl: string | null }
  /** `what`: the subscription's product, or the network of a token activation. */
  | { kind: 'access_ending'; source: 'subscription' | 'tokens'; what: string; at: string }
  | { kind: 'access_ended'; source: 'subscription' | 'tokens'; what: string; at: string }
  | { kind: 'low_balance'; balance: number; threshold: number }
  | { kind: 'rinex_ready'; mountpoint: string; windowStart: string; windowEnd: string; expiresAt: string }
  | { kind: 'membership'; organizationName: string; change: 'role' | 'removed' | 'deleted'; role: string }
  /**
   * Outage alerts (issue 33): `audience` customer (the station served their rovers), owner (they run the base: the
   * station's feed names them) or operator (an admin, every station); `causes` the integrity reason codes, empty when the station is offline.
   */
  | {
      kind: 'station_down';
      audience: 'customer' | 'owner' | 'operator';
      station: string;
      network: string;
      nearMountpoint: string;
      offline: boolean;
      causes: string[];
      since: string;
    }
  | {
      kind: 'station_up';
      audience: 'customer' | 'owner' | 'operator';
      station: string;
      network: string;
      since: string;
      at: string;
    };

export type MailKind = MailContent['kind'];

export interface RenderContext {
  brand: Brand;
  locale: MailLocale;
  publicUrl: string;
  /** Set for the mails a user may turn off: the signed one-click link. */
  unsubscribeUrl?: string;
}

interface Words {
  subject: string;
  paragraphs: string[];
  action?: { label: string; url: string };
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function date(value: string, locale: MailLocale): string {
  return new Intl.DateTimeFormat(locale === 'nl' ? 'nl-NL' : 'en-GB', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(new Date(value));
}

const ROLE: Record<MailLocale, Record<string, string>> = {
  en: { owner: 'owner', admin: 'admin', member: 'member' },
  nl: { owner: 'eigenaar', admin: 'beheerder', member: 'lid' },
};

/** The integrity monitor's reason codes (ADR 0063) in plain words. */
const CAUSE: Record<MailLocale, Record<string, string>> = {
  en: {
    position_moved: 'its reference position moved',
    position_mismatch: 'its reference position differs from the surveyed one',
    descriptor_mismatch: 'its receiver or antenna differs from the catalogue',
    constellation_missing: 'a satellite system or signal is missing',
    message_missing: 'a message type stopped',
    late: 'its data arrives late',
    crc_errors: 'its data arrives damaged',
    gap: 'its data has gaps',
  },
  nl: {
    position_moved: 'de referentiepositie is verschoven',
    position_mismatch: 'de referentiepositie wijkt af van de ingemeten positie',
    descriptor_mismatch: 'de ontvanger of antenne wijkt af van de catalogus',
    constellation_missing: 'een satellietsysteem of signaal ontbreekt',
    message_missing: 'een berichttype is gestopt',
    late: 'de data komt te laat binnen',
    crc_errors: 'de data komt beschadigd binnen',
    gap: 'de data heeft gaten',
  },
};

function words(content: MailContent, ctx: RenderContext): Words {
  const p = ctx.brand.name;
  const url = (path: string) => new URL(path, ctx.publicUrl).toString();
  const nl = ctx.locale === 'nl';
  switch (content.kind) {
    case 'invitation':
      return nl
        ? {
            subject: `Uitnodiging voor ${content.organizationName} op ${p}`,
            paragraphs: [
              `${content.inviter} nodigt je uit voor de organisatie ${content.organizationName} op ${p}.`,
              'Open de link om de uitnodiging te bekijken en aan te nemen. De link is geheim en werkt één keer: stuur hem niet door.',
            ],
            action: { label: 'Uitnodiging bekijken', url: content.link },
          }
        : {
            subject: `Invitation to ${content.organizationName} on ${p}`,
            paragraphs: [
              `${content.inviter} invites you to the organisation ${content.organizationName} on ${p}.`,
              'Open the link to see and accept the invitation. The link is secret and works once: do not forward it.',
            ],
            action: { label: 'View invitation', url: content.link },
          };
    case 'receipt': {
      const amount = formatMoney(content.amount, content.currency);
      const number = content.invoiceNumber;
      return nl
        ? {
            subject: `Betalingsbewijs: ${content.description}`,
            paragraphs: [
              `We hebben je betaling van ${amount} voor ${content.description} ontvangen op ${date(content.paidAt, 'nl')} (UTC).`,
              ...(number ? [`Factuurnummer: ${number}.`] : []),
            ],
            action: content.invoiceUrl
              ? { label: 'Factuur bekijken', url: content.invoiceUrl }
              : { label: 'Betalingen bekijken', url: url('/settings/billing') },
          }
        : {
            subject: `Payment receipt: ${content.description}`,
            paragraphs: [
              `We received your payment of ${amount} for ${content.description} on ${date(content.paidAt, 'en')} (UTC).`,
              ...(number ? [`Invoice number: ${number}.`] : []),
            ],
            action: content.invoiceUrl
              ? { label: 'View invoice', url: content.invoiceUrl }
              : { label: 'View payments', url: url('/settings/billing') },
          };
    }
    case 'renewal_failed': {
      const amount = formatMoney(content.amount, content.currency);
      return nl
        ? {
            subject: `Verlenging mislukt: ${content.description}`,
            paragraphs: [
              `De betaling van ${amount} om ${content.description} te verlengen is mislukt.`,
              'Werk je betaalgegevens bij, anders eindigt je toegang.',
            ],
            action: content.invoiceUrl
              ? { label: 'Factuur betalen', url: content.invoiceUrl }
              : { label: 'Betaalgegevens bijwerken', url: url('/settings/billing') },
          }
        : {
            subject: `Renewal failed: ${content.description}`,
            paragraphs: [
              `The payment of ${amount} to renew ${content.description} failed.`,
              'Update your payment details, or your access will end.',
            ],
            action: content.invoiceUrl
              ? { label: 'Pay the invoice', url: content.invoiceUrl }
              : { label: 'Update payment details', url: url('/settings/billing') },
          };
    }
    case 'access_ending': {
      const at = date(content.at, ctx.locale);
      if (content.source === 'tokens') {
        return nl
          ? {
              subject: `Je toegang tot ${content.what} eindigt binnenkort`,
              paragraphs: [
                `Je met tokens geactiveerde toegang tot het netwerk ${content.what} eindigt op ${at} (UTC). Activeer meer dagen om toegang te houden.`,
              ],
              action: { label: 'NTRIP-accounts bekijken', url: url('/accounts') },
            }
          : {
              subject: `Your access to ${content.what} ends soon`,
              paragraphs: [
                `Your access to the network ${content.what}, activated with tokens, ends on ${at} (UTC). Activate more days to keep it.`,
              ],
              action: { label: 'View NTRIP accounts', url: url('/accounts') },
            };
      }
      return nl
        ? {
            subject: `Je toegang via ${content.what} eindigt binnenkort`,
            paragraphs: [
              `Je abonnement ${content.what} eindigt op ${at} (UTC). Daarna hebben je NTRIP-accounts geen toegang meer tot de netwerken ervan.`,
            ],
            action: { label: 'Abonnementen bekijken', url: url('/subscriptions') },
          }
        : {
            subject: `Your access through ${content.what} ends soon`,
            paragraphs: [
              `Your subscription ${content.what} ends on ${at} (UTC). After that your NTRIP accounts no longer have access to its networks.`,
            ],
            action: { label: 'View subscriptions', url: url('/subscriptions') },
          };
    }
    case 'access_ended': {
      const at = date(content.at, ctx.locale);
      if (content.source === 'tokens') {
        return nl
          ? {
              subject: `Je toegang tot ${content.what} is beëindigd`,
              paragraphs: [
                `Je met tokens geactiveerde toegang tot het netwerk ${content.what} is beëindigd op ${at} (UTC). Activeer nieuwe dagen om weer toegang te krijgen.`,
              ],
              action: { label: 'NTRIP-accounts bekijken', url: url('/accounts') },
            }
          : {
              subject: `Your access to ${content.what} has ended`,
              paragraphs: [
                `Your access to the network ${content.what}, activated with tokens, ended on ${at} (UTC). Activate more days to get it back.`,
              ],
              action: { label: 'View NTRIP accounts', url: url('/accounts') },
            };
      }
      return nl
        ? {
            subject: `Je toegang via ${content.what} is beëindigd`,
            paragraphs: [
              `Je abonnement ${content.what} is beëindigd op ${at} (UTC). Je NTRIP-accounts hebben geen toegang meer tot de netwerken ervan.`,
            ],
            action: { label: 'Abonnementen bekijken', url: url('/subscriptions') },
          }
        : {
            subject: `Your access through ${content.what} has ended`,
            paragraphs: [
              `Your subscription ${content.what} ended on ${at} (UTC). Your NTRIP accounts no longer have access to its networks.`,
            ],
            action: { label: 'View subscriptions', url: url('/subscriptions') },
          };
    }
    case 'low_balance':
      return nl
        ? {
            subject: `Je tokensaldo is ${content.balance}`,
            paragraphs: [
              `Je tokensaldo is gedaald tot ${content.balance}, onder de grens van ${content.threshold} die je hebt ingesteld.`,
            ],
            action: { label: 'Tokens kopen', url: url('/credits') },
          }
        : {
            subject: `Your token balance is ${content.balance}`,
            paragraphs: [
              `Your token balance fell to ${content.balance}, below the threshold of ${content.threshold} you set.`,
            ],
            action: { label: 'Buy tokens', url: url('/credits') },
          };
    case 'rinex_ready':
      return nl
        ? {
            subject: `RINEX van ${content.mountpoint} staat klaar`,
            paragraphs: [
              `Je RINEX-bestanden van ${content.mountpoint}, ${date(content.windowStart, 'nl')} tot ${date(content.windowEnd, 'nl')} (UTC), staan klaar om te downloaden tot ${date(content.expiresAt, 'nl')} (UTC).`,
            ],
            action: { label: 'Naar de downloads', url: url('/rinex') },
          }
        : {
            subject: `RINEX of ${content.mountpoint} is ready`,
            paragraphs: [
              `Your RINEX files of ${content.mountpoint}, ${date(content.windowStart, 'en')} to ${date(content.windowEnd, 'en')} (UTC), can be downloaded until ${date(content.expiresAt, 'en')} (UTC).`,
            ],
            action: { label: 'Go to downloads', url: url('/rinex') },
          };
    case 'station_down': {
      const since = date(content.since, ctx.locale);
      const { station, network } = content;
      const customer = content.audience === 'customer';
      const owner = content.audience === 'owner';
      const causes = content.causes.map((c) => CAUSE[ctx.locale][c] ?? c).join(', ');
      return nl
        ? {
            subject: `Storing: station ${station} (${network})`,
            paragraphs: [
              content.offline
                ? `Station ${station} van het netwerk ${network} stuurt sinds ${since} (UTC) geen correcties meer.`
                : `Station ${station} van het netwerk ${network} faalt sinds ${since} (UTC) de integriteitscontrole: ${causes}. Vertrouw de correcties van dit station niet.`,
              ...(customer
                ? [
                    `Je rovers gebruikten dit station de afgelopen 30 dagen. Rovers op ${content.nearMountpoint} gaan naar het volgende goede station.${content.offline ? '' : ` Het mountpoint ${station} zelf blijft de data van het station leveren.`}`,
                  ]
                : owner
                  ? [
                      content.offline
                        ? 'Je bent de eigenaar van dit basisstation. Controleer de stroom, de internetverbinding en de NTRIP-server van de ontvanger.'
                        : 'Je bent de eigenaar van dit basisstation. Controleer of de antenne is verplaatst of geraakt en of de ontvanger alle signalen en berichten stuurt.',
                    ]
                  : []),
              'We sturen je een mail wanneer het station weer werkt.',
            ],
            action:
              customer || owner
                ? { label: 'Status bekijken', url: url('/status') }
                : { label: 'Naar de kaart', url: url('/admin/map') },
          }
        : {
            subject: `Outage: station ${station} (${network})`,
            paragraphs: [
              content.offline
                ? `Station ${station} of the network ${network} has sent no corrections since ${since} (UTC).`
                : `Station ${station} of the network ${network} has failed its integrity check since ${since} (UTC): ${causes}. Do not trust its corrections.`,
              ...(customer
                ? [
                    `Your rovers used this station in the last 30 days. Rovers on ${content.nearMountpoint} move to the next good station.${content.offline ? '' : ` The mountpoint ${station} itself keeps sending the station's data.`}`,
                  ]
                : owner
                  ? [
                      content.offline
                        ? "You are the owner of this base station. Please check its power, its internet link and the receiver's NTRIP server."
                        : 'You are the owner of this base station. Please check whether its antenna was moved or knocked and whether the receiver sends all its signals and messages.',
                    ]
                  : []),
              'We will mail you when the station works again.',
            ],
            action:
              customer || owner
                ? { label: 'View status', url: url('/status') }
                : { label: 'Open the map', url: url('/admin/map') },
          };
    }
    case 'station_up': {
      const { station, network } = content;
      const since = date(content.since, ctx.locale);
      const at = date(content.at, ctx.locale);
      return nl
        ? {
            subject: `Opgelost: station ${station} (${network}) werkt weer`,
            paragraphs: [
              `Station ${station} van het netwerk ${network} werkt weer sinds ${at} (UTC). De storing begon op ${since} (UTC).`,
            ],
            action:
              content.audience !== 'operator'
                ? { label: 'Status bekijken', url: url('/status') }
                : { label: 'Naar de kaart', url: url('/admin/map') },
          }
        : {
            subject: `Resolved: station ${station} (${network}) works again`,
            paragraphs: [
              `Station ${station} of the network ${network} has worked again since ${at} (UTC). The outage began on ${since} (UTC).`,
            ],
            action:
              content.audience !== 'operator'
                ? { label: 'View status', url: url('/status') }
                : { label: 'Open the map', url: url('/admin/map') },
          };
    }
    case 'membership': {
      const role = ROLE[ctx.locale][content.role] ?? content.role;
      const org = content.organizationName;
      if (content.change === 'deleted') {
        return nl
          ? {
              subject: `${org} is verwijderd`,
              paragraphs: [
                `De organisatie ${org} op ${p} is verwijderd door een eigenaar of beheerder, dus je bent geen lid meer. De NTRIP-accounts van de organisatie hebben geen toegang meer en de abonnementen ervan zijn beëindigd.`,
              ],
              action: { label: 'Naar het portaal', url: url('/dashboard') },
            }
          : {
              subject: `${org} was deleted`,
              paragraphs: [
                `The organisation ${org} on ${p} was deleted by an owner or admin, so you are no longer a member. The organisation's NTRIP accounts no longer give you access and its subscriptions have ended.`,
              ],
              action: { label: 'Open the portal', url: url('/dashboard') },
            };
      }
      if (content.change === 'removed') {
        return nl
          ? {
              subject: `Je bent geen lid meer van ${org}`,
              paragraphs: [
                `Je bent geen lid meer van de organisatie ${org} op ${p}. Je NTRIP-accounts van de organisatie hebben geen toegang meer.`,
              ],
              action: { label: 'Naar het portaal', url: url('/dashboard') },
            }
          : {
              subject: `You are no longer a member of ${org}`,
              paragraphs: [
                `You are no longer a member of the organisation ${org} on ${p}. The organisation's NTRIP accounts no longer give you access.`,
              ],
              action: { label: 'Open the portal', url: url('/dashboard') },
            };
      }
      return nl
        ? {
            subject: `Je rol in ${org} is gewijzigd`,
            paragraphs: [`Je rol in de organisatie ${org} is nu ${role}.`],
            action: { label: 'Naar het portaal', url: url('/dashboard') },
          }
        : {
            subject: `Your role in ${org} changed`,
            paragraphs: [`Your role in the organisation ${org} is now ${role}.`],
            action: { label: 'Open the portal', url: url('/dashboard') },
          };
    }
  }
}

const FOOTER = {
  en: {
    optional: 'You receive this mail because it is on in your notification settings.',
    unsubscribe: 'Unsubscribe from these mails',
    settings: 'Notification settings',
  },
  nl: {
    optional: 'Je ontvangt deze mail omdat hij aan staat in je meldingsinstellingen.',
    unsubscribe: 'Afmelden voor deze mails',
    settings: 'Meldingsinstellingen',
  },
};

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export function renderMail(content: MailContent, ctx: RenderContext): RenderedMail {
  const w = words(content, ctx);
  const { brand } = ctx;
  const footer = FOOTER[ctx.locale];
  const settingsUrl = new URL('/settings', ctx.publicUrl).toString();
  const text = [
    brand.name,
    '',
    ...w.paragraphs.flatMap((line) => [line, '']),
    ...(w.action ? [`${w.action.label}: ${w.action.url}`, ''] : []),
    '-- ',
    ...(ctx.unsubscribeUrl
      ? [footer.optional, `${footer.unsubscribe}: ${ctx.unsubscribeUrl}`, `${footer.settings}: ${settingsUrl}`]
      : [brand.name, ctx.publicUrl]),
    '',
  ].join('\n');

  const colors = brand.paymentWidgetColors;
  const e = escapeHtml;
  const logo = new URL(brand.iconLogo, ctx.publicUrl).toString();
  const html = `<!doctype html>
<html lang="${ctx.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${e(w.subject)}</title></head>
<body style="margin:0;padding:0;background:${colors.colorBackground};color:${colors.colorText};font-family:Arial,Helvetica,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${colors.colorBackground}"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;width:100%;border:1px solid ${colors.colorBorder};border-radius:12px">
<tr><td style="padding:20px 24px;border-bottom:1px solid ${colors.colorBorder}"><img src="${e(logo)}" width="28" height="28" alt="" style="vertical-align:middle;border:0"> <strong style="vertical-align:middle;font-size:16px;color:${colors.colorText}">${e(brand.name)}</strong></td></tr>
<tr><td style="padding:24px;font-size:15px;line-height:1.5;color:${colors.colorText}">
${w.paragraphs.map((line) => `<p style="margin:0 0 16px">${e(line)}</p>`).join('\n')}
${
  w.action
    ? `<p style="margin:24px 0"><a href="${e(w.action.url)}" style="display:inline-block;padding:10px 18px;border-radius:8px;background:${brand.darkModePrimaryColor};color:${brand.onPrimaryColor};font-weight:bold;text-decoration:none">${e(w.action.label)}</a></p>
<p style="margin:0;font-size:12px;color:${colors.colorText};word-break:break-all">${e(w.action.url)}</p>`
    : ''
}
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid ${colors.colorBorder};font-size:12px;color:${colors.colorText}">${
    ctx.unsubscribeUrl
      ? `${e(footer.optional)} <a href="${e(ctx.unsubscribeUrl)}" style="color:${brand.darkModePrimaryColor}">${e(footer.unsubscribe)}</a> · <a href="${e(settingsUrl)}" style="color:${brand.darkModePrimaryColor}">${e(footer.settings)}</a>`
      : `<a href="${e(ctx.publicUrl)}" style="color:${brand.darkModePrimaryColor}">${e(brand.name)}</a>`
  }</td></tr>
</table></td></tr></table>
</body></html>
`;
  return { subject: w.subject.replace(/[\r\n]+/g, ' '), text, html };
}
