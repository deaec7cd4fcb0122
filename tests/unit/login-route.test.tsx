import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { LoginRoute } from '../../src/app/LoginRoute';
import { LoginModalContext, type LoginModalControls } from '../../src/features/auth/login-modal-context';
import { fakeUser } from './support/factories';
import { server } from './support/server';
import { renderRoutes } from './support/shell';

function fakeModal(): LoginModalControls {
  return { isOpen: false, view: 'login', open: vi.fn(), close: vi.fn() };
}

const routesWith = (modal?: LoginModalControls) => {
  const wrap = (el: React.ReactNode) =>
    modal ? <LoginModalContext.Provider value={modal}>{el}</LoginModalContext.Provider> : el;
  return [
    { path: '/login', element: wrap(<LoginRoute view="login" />) },
    { path: '/signup', element: wrap(<LoginRoute view="signup" />) },
    { path: '/register', element: wrap(<LoginRoute view="signup" />) },
    { path: '/dashboard', element: <h1>Dashboard</h1> },
  ];
};

describe('/login, /signup, /register', () => {
  it.each([
    ['/login', 'login'],
    ['/signup', 'signup'],
    ['/register', 'signup'],
  ])('%s opens the login modal in the %s view over the dashboard, once the dashboard is drawn', async (path, view) => {
    const modal = fakeModal();
    let dashboardDrawn = false;
    modal.open = vi.fn(() => {
      dashboardDrawn = screen.queryByRole('heading', { name: 'Dashboard' }) !== null;
    });
    const { router } = renderRoutes(routesWith(modal), { path, auth: undefined });
    await waitFor(() => expect(modal.open).toHaveBeenCalledWith(view));
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(dashboardDrawn).toBe(true);
  });

  it('shows a Log in page when no login modal is mounted', async () => {
    // The page names itself from the page meta the server has, none here.
    server.use(
      http.get('*/api/meta/pages/:page', () =>
        HttpResponse.json({ code: 'not_found', message: 'none' }, { status: 404 }),
      ),
    );
    renderRoutes(routesWith(), { path: '/login', auth: undefined });
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' })).toBeInTheDocument();
  });

  it('sends a logged-in user to /dashboard without opening the modal', async () => {
    const modal = fakeModal();
    const { router } = renderRoutes(routesWith(modal), { path: '/register', auth: fakeUser() });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(modal.open).not.toHaveBeenCalled();
  });
});
