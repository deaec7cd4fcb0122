import { type QueryClient, QueryClientContext } from '@tanstack/react-query';
import { type ComponentType, lazy, type ReactNode, useSyncExternalStore } from 'react';

/**
 * React Query is not part of a first visit's load (ADR 0030): a logged-out page draws without it. The app's
 * QueryClient lives in `queries.tsx`, which loads with the first part of the page that queries (a page's chunk, the
 * signed-in user's header, the page meta after first paint). Until then the context holds no client, and nothing
 * that queries is rendered: such parts are made with `lazyWithQueries`.
 */
let loaded: QueryClient | undefined;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Loads `queries.tsx` and puts its client in the slot; every load of it goes through here. */
export async function loadQueries() {
  const queries = await import('./queries');
  if (loaded !== queries.queryClient) {
    loaded = queries.queryClient;
    for (const listener of listeners) listener();
  }
  return queries;
}

/**
 * Gives the whole app the QueryClient once it has loaded, so what a page hands elsewhere (the modal host's content)
 * finds it too. The context's value changes from nothing to the client; nothing below remounts.
 */
export function QueryClientSlot({ children }: { children: ReactNode }) {
  const client = useSyncExternalStore(subscribe, () => loaded);
  return <QueryClientContext.Provider value={client}>{children}</QueryClientContext.Provider>;
}

/** A lazily loaded component that queries: its module and React Query's load together, and it renders with both. */
// biome-ignore lint/suspicious/noExplicitAny: the props of the component loaded, whatever they are
export function lazyWithQueries<P extends Record<string, any>>(load: () => Promise<ComponentType<P>>) {
  return lazy(async () => {
    const [Component, { WithQueries }] = await Promise.all([load(), loadQueries()]);
    return {
      default: (props: P) => (
        <WithQueries>
          <Component {...props} />
        </WithQueries>
      ),
    };
  });
}
