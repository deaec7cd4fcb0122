import i18n from 'i18next';
import { HttpResponse, http } from 'msw';
import { expect, it } from 'vitest';
import { initI18n } from '../../../src/lib/i18n';
import { server } from '../support/server';

const element = (namespace: string, language: string, texts: object | string) => {
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = `i18n-${namespace}`;
  script.dataset.lng = language;
  script.textContent = typeof texts === 'string' ? texts : JSON.stringify(texts);
  document.head.append(script);
};

// The portal server writes the shell's texts, and on /signup and /login the log-in modal's, into the page (ADR 0039).
it('starts with every namespace the page carries, so the first paint and the log-in modal wait for no locale file', async () => {
  element('common', 'nl', { menu: 'Menu' });
  element('auth', 'nl', { 'auth.register.title': 'Registreren' });
  element('billing', 'nl', '{not json');
  // What the page does not carry loads from its file, as before: here the fallback language's shell texts.
  const fetched: string[] = [];
  server.use(
    http.get('*/locales/:lng/:ns', ({ params }) => {
      fetched.push(`${params.lng}/${params.ns}`);
      return HttpResponse.json({});
    }),
  );
  window.history.replaceState(null, '', '/signup?lng=nl');
  await initI18n();
  expect(fetched).toEqual(['en/common.json']);
  expect(i18n.language).toBe('nl');
  expect(i18n.hasResourceBundle('nl', 'auth')).toBe(true);
  expect(i18n.getFixedT('nl', 'auth')('auth.register.title')).toBe('Registreren');
  expect(i18n.hasResourceBundle('nl', 'billing')).toBe(false);
});
