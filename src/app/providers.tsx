import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18n from 'i18next';
import type { ReactNode } from 'react';
import { AuthProvider } from '../features/auth/AuthProvider';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } },
});

// Answers can be in the app's language (networks an operator translated; lib/api.ts sends it): a switch refetches
// what is shown. The first detection is no switch, nothing is cached yet.
let shownLanguage: string | undefined;
i18n.on('languageChanged', (language) => {
  if (shownLanguage !== undefined && shownLanguage !== language) void queryClient.invalidateQueries();
  shownLanguage = language;
});

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>{children}</AuthProvider>
    </QueryClientProvider>
  );
}
