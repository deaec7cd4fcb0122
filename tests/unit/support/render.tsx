import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import i18n from 'i18next';
import type { ReactElement, ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { type InitialEntry, MemoryRouter } from 'react-router';
import { ModalProvider } from '../../../src/components/modal';

const localesDir = join(import.meta.dirname, '../../../public/locales/en');

/** The real English locale files, loaded synchronously, so tests read the texts a user reads. */
function englishResources() {
  return Object.fromEntries(
    readdirSync(localesDir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(join(localesDir, f), 'utf8'))]),
  );
}

export const testI18n = i18n.createInstance();
void testI18n.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  defaultNS: 'common',
  resources: { en: englishResources() },
  interpolation: { escapeValue: false, defaultVariables: { product: 'GNSS Portal', brand: 'GNSS Portal' } },
});

/** Renders inside the providers every page has: i18n, React Query (no retries), the modal host and a router. */
export function renderWithProviders(
  ui: ReactElement,
  { route = '/', wrapper }: { route?: InitialEntry; wrapper?: (c: ReactNode) => ReactNode } = {},
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const tree = (
    <I18nextProvider i18n={testI18n}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[route]}>
          <ModalProvider>{wrapper ? wrapper(ui) : ui}</ModalProvider>
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>
  );
  return { ...render(tree), queryClient };
}
