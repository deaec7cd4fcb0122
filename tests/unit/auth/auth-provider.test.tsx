import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '../../../src/features/auth/AuthProvider';
import { useAuth } from '../../../src/features/auth/auth-context';
import { server } from '../support/server';

const listeners: Array<(user: unknown) => void> = [];
vi.mock('firebase/auth', () => ({
  onIdTokenChanged: (_auth: unknown, cb: (user: unknown) => void) => {
    listeners.push(cb);
    return () => {};
  },
  signOut: vi.fn(async () => {
    for (const cb of listeners) cb(null);
  }),
}));
vi.mock('../../../src/lib/firebase', () => ({ firebaseAuth: () => ({ currentUser: null }) }));

const fakeUser = {
  uid: 'uid-1',
  displayName: 'Rover',
  email: 'rover@example.com',
  photoURL: null,
  getIdToken: async () => 'token',
  reload: async () => {},
};

let userStatus = 200;
beforeEach(() =>
  server.use(
    http.get('*/api/user', () =>
      userStatus === 200
        ? HttpResponse.json({ teams: [], isAdmin: true, termsAcceptedAt: '2026-01-01T00:00:00.000Z' })
        : HttpResponse.json({ code: 'internal', message: 'down' }, { status: userStatus }),
    ),
  ),
);

function Probe() {
  const auth = useAuth();
  const cached = useQuery({ queryKey: ['something-cached'], queryFn: async () => 'cached value' });
  if (auth === 'loading') return <p>loading</p>;
  if (!auth) return <p>logged out; cache: {String(cached.data)}</p>;
  return (
    <div>
      <p>
        {auth.username} admin:{String(auth.isAdmin)} teams:{auth.teams ? auth.teams.length : 'undefined'}
      </p>
      <button type="button" onClick={() => void auth.logout()}>
        logout
      </button>
    </div>
  );
}

function renderProvider() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <AuthProvider>
        <Probe />
      </AuthProvider>
    </QueryClientProvider>,
  );
  return client;
}

beforeEach(() => {
  listeners.length = 0;
  userStatus = 200;
});
afterEach(() => vi.restoreAllMocks());

describe('AuthProvider', () => {
  it('is loading until Firebase answers, then fetches teams and the admin flag from GET /api/user', async () => {
    renderProvider();
    expect(screen.getByText('loading')).toBeInTheDocument();
    await vi.waitFor(() => expect(listeners).toHaveLength(1));
    act(() => listeners[0]?.(fakeUser));
    await screen.findByText('Rover admin:true teams:0');
  });

  it("logs 'Failed to fetch userInfo status' and leaves teams and isAdmin undefined when /api/user fails", async () => {
    userStatus = 500;
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderProvider();
    await vi.waitFor(() => expect(listeners).toHaveLength(1));
    act(() => listeners[0]?.(fakeUser));
    // The provider retries once (about a second) before giving up.
    await vi.waitFor(() => expect(logged).toHaveBeenCalledWith('Failed to fetch userInfo status', expect.anything()), {
      timeout: 5_000,
    });
    expect(screen.getByText('Rover admin:undefined teams:undefined')).toBeInTheDocument();
  });

  it('clears the React Query caches on logout', async () => {
    const client = renderProvider();
    await vi.waitFor(() => expect(listeners).toHaveLength(1));
    act(() => listeners[0]?.(fakeUser));
    await screen.findByText('Rover admin:true teams:0');
    client.setQueryData(['private'], 'secret');
    await act(async () => screen.getByText('logout').click());
    await screen.findByText(/logged out/);
    expect(client.getQueryData(['private'])).toBeUndefined();
    expect(client.getQueryData(['user-info', 'uid-1'])).toBeUndefined();
  });
});
