import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { switchProfilePath } from '../../src/app/navigation';
import { routes } from '../../src/app/routes';
import { fakeUser } from './support/factories';
import { server } from './support/server';
import { renderRoutes, setViewportWidth } from './support/shell';

beforeEach(() =>
  server.use(
    http.get('*/api/subscriptions', () => HttpResponse.json({ subscriptions: [], tokenAmount: 1250 })),
    http.get('*/api/meta/pages/:page', () => new HttpResponse(null, { status: 404 })),
    // A signed-in user's dashboard lists their NTRIP accounts.
    http.get('*/api/ntrip-accounts', () => HttpResponse.json({ items: [] })),
    http.get('*/api/user', () =>
      HttpResponse.json({ teams: [], isAdmin: false, termsAcceptedAt: '2026-01-01T00:00:00.000Z' }),
    ),
  ),
);
beforeEach(() => {
  localStorage.clear();
  setViewportWidth(1440);
});

describe('route trees', () => {
  it.each(['/map', '/credits', '/admin/users', '/'])(
    'sends a logged-out visitor from %s to /dashboard',
    async (path) => {
      const { router } = renderRoutes(routes, { path, auth: undefined });
      await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    },
  );

  it('shows a spinner while authentication loads', async () => {
    renderRoutes(routes, { path: '/dashboard', auth: 'loading' });
    expect(await screen.findByRole('status')).toHaveTextContent('Loading…');
  });

  it('shows the Restricted Access panel to a non-admin on an admin route', async () => {
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, { path: '/admin/users', auth: fakeUser({ isAdmin: false }) });
    expect(await screen.findByRole('heading', { name: 'Restricted Access' })).toBeInTheDocument();
    expect(screen.getByText('You do not have the permissions to view this page.')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Back to Dashboard' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it.each([
    ['a logged-out visitor', '/nowhere', undefined, 'Go to the dashboard', '/dashboard'],
    ['a user', '/nope', fakeUser(), 'Go to the dashboard', '/dashboard'],
    ['an admin', '/admin/nope/deeper', fakeUser({ isAdmin: true }), 'Go to the network map', '/admin/map'],
    ['an admin', '/admin/settings/nope', fakeUser({ isAdmin: true }), 'Go to the network map', '/admin/map'],
  ])('shows %s a not-found page at %s, with the address kept and a way on', async (_who, path, auth, link, to) => {
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, { path, auth });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText(`There is no page at ${path}. The link may be old or mistyped.`)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(path);
    await user.click(screen.getByRole('link', { name: link }));
    await waitFor(() => expect(router.state.location.pathname).toBe(to));
  });

  it('/admin/settings, where the switcher leads from /settings, opens the first real settings page', async () => {
    const { router } = renderRoutes(routes, {
      path: switchProfilePath('/settings'),
      auth: fakeUser({ isAdmin: true }),
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/settings/payments'));
    expect(screen.queryByText(/being prepared/)).not.toBeInTheDocument();
  });

  it('the switcher keeps the page name', () => {
    expect(switchProfilePath('/admin/map')).toBe('/map');
    expect(switchProfilePath('/map')).toBe('/admin/map');
    expect(switchProfilePath('/subscriptions')).toBe('/admin/subscriptions');
    expect(switchProfilePath('/admin/settings/payments')).toBe('/settings/payments');
  });

  it('header: logo to /, network coverage to /marketplace, token balance and profile link when logged in', async () => {
    renderRoutes(routes, { path: '/dashboard', auth: fakeUser() });
    const header = await screen.findByRole('banner');
    expect(header.querySelector('a[href="/"]')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Network coverage' })[0]).toHaveAttribute('href', '/marketplace');
    expect(await within(header).findByText('1,250')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Your account' })).toHaveAttribute('href', '/settings');
    expect(within(header).getByTestId('default-avatar')).toBeInTheDocument();
  });

  it('the hamburger menu shows RTK User for a user without a name, the e-mail, Need Help? and Log out', async () => {
    setViewportWidth(375);
    const user = userEvent.setup();
    renderRoutes(routes, { path: '/dashboard', auth: fakeUser({ username: '' }) });
    await user.click(await screen.findByRole('button', { name: 'Open menu' }));
    expect(await screen.findByTestId('mobile-username')).toHaveTextContent('RTK User');
    expect(screen.getAllByText('ada@example.test').length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: /Need Help\?/ })).toHaveAttribute('href', '/help');
    expect(screen.getByRole('button', { name: 'Log out' })).toBeInTheDocument();
  });
});
