import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { followUiLanguage } from '../../../src/features/mail/mail-language';

/** The part of i18next the sync uses: the resolved language and its languageChanged event. */
function fakeI18n(language: string) {
  const events = new EventEmitter();
  return {
    resolvedLanguage: language,
    on: (event: string, listener: (lng: string) => void) => events.on(event, listener),
    off: (event: string, listener: (lng: string) => void) => events.off(event, listener),
    switchTo(lng: string) {
      this.resolvedLanguage = lng;
      events.emit('languageChanged', lng);
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('the mail language follows the UI language (issue 32)', () => {
  afterEach(() => localStorage.clear());

  it('stores the UI language on the server at log-in and on every switch, once per language and browser', async () => {
    const saved: string[] = [];
    const i18n = fakeI18n('nl');
    const stop = followUiLanguage('u1', i18n as never, async (locale) => saved.push(locale));
    await settle();
    expect(saved).toEqual(['nl']);
    i18n.switchTo('en');
    await settle();
    expect(saved).toEqual(['nl', 'en']);
    stop();
    i18n.switchTo('nl');
    await settle();
    expect(saved).toEqual(['nl', 'en']);

    // The next log-in in this browser, in the language already stored: nothing to send.
    const again = followUiLanguage('u1', fakeI18n('en') as never, async (locale) => saved.push(locale));
    await settle();
    again();
    expect(saved).toEqual(['nl', 'en']);
  });

  it('tries again at the next log-in when storing failed, and ignores a language the mails do not have', async () => {
    const stop = followUiLanguage('u2', fakeI18n('nl') as never, () => Promise.reject(new Error('offline')));
    await settle();
    stop();
    const saved: string[] = [];
    const i18n = fakeI18n('nl');
    const stopAgain = followUiLanguage('u2', i18n as never, async (locale) => saved.push(locale));
    await settle();
    i18n.switchTo('de');
    await settle();
    stopAgain();
    expect(saved).toEqual(['nl']);
  });
});
