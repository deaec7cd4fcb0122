import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { type ReactNode, useState } from 'react';
import {
  type Location,
  MemoryRouter,
  type NavigateFunction,
  type RouteObject,
  useLocation,
  useNavigate,
  useRoutes,
} from 'react-router';
import { ModalProvider } from '../../../src/components/modal';
import { AuthContext, type AuthState } from '../../../src/features/auth/auth-context';
import { initTestI18n } from './i18n';

export const testQueryClient = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

export function Wrapper({ auth, children, client }: { auth: AuthState; children: ReactNode; client?: QueryClient }) {
  const [queryClient] = useState(() => client ?? testQueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <AuthContext.Provider value={auth}>
        <ModalProvider>{children}</ModalProvider>
      </AuthContext.Provider>
    </QueryClientProvider>
  );
}

/** What a test reads of the router and how it navigates, as a user's address bar would. */
export interface TestRouter {
  state: { location: Location };
  navigate: NavigateFunction;
}

function Routes({ routes, router }: { routes: RouteObject[]; router: TestRouter }) {
  router.state.location = useLocation();
  router.navigate = useNavigate();
  return useRoutes(routes);
}

/** Renders route objects under the given auth state with the router the app uses (useRoutes), in memory. */
export function renderRoutes(
  routes: RouteObject[],
  { path = '/', auth, client }: { path?: string; auth: AuthState; client?: QueryClient },
) {
  initTestI18n();
  const router = { state: {} } as TestRouter;
  const result = render(
    <Wrapper auth={auth} client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes routes={routes} router={router} />
      </MemoryRouter>
    </Wrapper>,
  );
  return { ...result, router };
}

export function setViewportWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
  window.dispatchEvent(new Event('resize'));
}
