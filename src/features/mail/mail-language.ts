import type { MailLocale } from '@portal/contract';
import type { i18n as I18n } from 'i18next';
import { SUPPORTED_LANGUAGES } from '../../lib/i18n';

/** Where the browser remembers which language it last stored as this user's mail language. */
export const mailLanguageKey = (uid: string) => `mail-language:${uid}`;

/**
 * The portal mails a user in the language they use it in (issue 32): the UI language is stored as the mail language
 * when the user logs in and whenever they switch, unless this browser already stored that very language for them.
 * A different language picked in the settings' mail section stays until the UI language changes. Returns the
 * unsubscribe.
 */
export function followUiLanguage(
  uid: string,
  i18n: Pick<I18n, 'resolvedLanguage' | 'on' | 'off'>,
  save: (locale: MailLocale) => Promise<unknown>,
): () => void {
  const sync = (language: string | undefined) => {
    // The UI's languages are the mails' (contract MAIL_LOCALES), named here without loading the contract first.
    const locale = SUPPORTED_LANGUAGES.find((l): l is MailLocale => l === language);
    if (!locale) return;
    let stored: string | null = null;
    try {
      stored = localStorage.getItem(mailLanguageKey(uid));
    } catch {
      // storage blocked: store it on the server every time
    }
    if (stored === locale) return;
    save(locale).then(
      () => {
        try {
          localStorage.setItem(mailLanguageKey(uid), locale);
        } catch {
          // storage blocked
        }
      },
      // Not stored this time (offline, logged out meanwhile): the next log-in or switch tries again.
      () => undefined,
    );
  };
  const onChange = (language: string) => sync(language);
  sync(i18n.resolvedLanguage);
  i18n.on('languageChanged', onChange);
  return () => i18n.off('languageChanged', onChange);
}
