import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { type InitialEntry, MemoryRouter } from 'react-router';
import { ModalProvider } from '../../../src/components/modal';
import { initTestI18n } from './i18n';

/** Renders inside the providers every page has: i18n, React Query (no retries), the modal host and a router. */
export function renderWithProviders(
  ui: ReactElement,
  { route = '/', wrapper }: { route?: InitialEntry; wrapper?: (c: ReactNode) => ReactNode } = {},
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const tree = (
    <I18nextProvider i18n={initTestI18n()}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[route]}>
          <ModalProvider>{wrapper ? wrapper(ui) : ui}</ModalProvider>
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>
  );
  return { ...render(tree), queryClient };
}
