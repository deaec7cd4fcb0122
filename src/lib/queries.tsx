import { QueryClient, QueryClientContext } from '@tanstack/react-query';
import i18n from 'i18next';
import { type ReactNode, useContext } from 'react';

export { QueryObserver } from '@tanstack/react-query';

/**
 * The app's one QueryClient; it loads with the first part of a page that queries, through `loadQueries`
 * (query-client-slot.tsx), which hands it to the app.
 */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } },
});
// For the app's lifetime: refetching on reconnect and resuming paused mutations (what QueryClientProvider mounts).
queryClient.mount();

// Answers can be in the app's language (networks an operator translated; lib/api.ts sends it): a switch refetches
// what is shown. The language detected before this module loaded is no switch.
let shownLanguage: string | undefined = i18n.language;
i18n.on('languageChanged', (language) => {
  if (shownLanguage !== undefined && shownLanguage !== language) void queryClient.invalidateQueries();
  shownLanguage = language;
});

/**
 * The client for a part loaded with lazyWithQueries, at once: the app-wide slot may not have re-rendered yet. A
 * client provided from above (a test's) wins.
 */
export function WithQueries({ children }: { children: ReactNode }) {
  const outer = useContext(QueryClientContext);
  return <QueryClientContext.Provider value={outer ?? queryClient}>{children}</QueryClientContext.Provider>;
}
