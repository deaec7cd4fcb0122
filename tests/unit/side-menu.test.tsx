import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppLayout } from '../../src/app/layout/AppLayout';
import {
  CLOSE_SIDEBAR_EVENT,
  OPEN_SIDEBAR_EVENT,
  SIDEMENU_STORAGE_KEY,
  submenuStorageKey,
} from '../../src/app/layout/side-menu-state';
import { fakeUser } from './support/factories';
import { server } from './support/server';
import { renderRoutes, setViewportWidth } from './support/shell';

beforeEach(() =>
  server.use(
    http.get('*/api/subscriptions', () => HttpResponse.json({ subscriptions: [], tokenAmount: 1250 })),
    http.get('*/api/meta/pages/:page', () => new HttpResponse(null, { status: 404 })),
  ),
);

const page = (name: string) => ({ path: name, element: <h1>{name}</h1> });
const routes = [
  { element: <AppLayout />, children: [page('dashboard'), page('accounts'), page('marketplace'), page('admin/map')] },
];
const sideMenu = () => document.getElementById('side-menu');

beforeEach(() => {
  localStorage.clear();
  setViewportWidth(1440);
});
afterEach(() => setViewportWidth(1024));

describe('side menu', () => {
  it('is open by default on desktop and remembers a collapse under layout-sidemenu-open', async () => {
    const user = userEvent.setup();
    const view = renderRoutes(routes, { path: '/dashboard', auth: undefined });
    expect(sideMenu()).toHaveAttribute('data-state', 'open');
    await user.click(screen.getByRole('button', { name: 'Collapse menu' }));
    expect(sideMenu()).toHaveAttribute('data-state', 'closed');
    expect(localStorage.getItem(SIDEMENU_STORAGE_KEY)).toBe('false');
    view.unmount();
    renderRoutes(routes, { path: '/dashboard', auth: undefined });
    expect(sideMenu()).toHaveAttribute('data-state', 'closed');
    expect(screen.getByRole('button', { name: 'Expand menu' })).toBeInTheDocument();
  });

  it('highlights the entry whose url is the current path', () => {
    renderRoutes(routes, { path: '/marketplace', auth: undefined });
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Network coverage' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current');
  });

  it('stores submenu state per label and icon, and collapses submenus when the menu collapses on desktop', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, { path: '/dashboard', auth: fakeUser() });
    const key = submenuStorageKey('navigation.networkAccess', 'antenna');
    expect(key).toBe('submenu-open-navigation.networkAccess-antenna');
    await user.click(screen.getByRole('button', { name: 'Network Access' }));
    expect(localStorage.getItem(key)).toBe('true');
    expect(screen.getByRole('link', { name: 'NTRIP accounts' })).toHaveAttribute('href', '/accounts');
    await user.click(screen.getByRole('button', { name: 'Collapse menu' }));
    expect(localStorage.getItem(key)).toBe('false');
    await user.click(screen.getByRole('button', { name: 'Expand menu' }));
    expect(screen.queryByRole('link', { name: 'NTRIP accounts' })).not.toBeInTheDocument();
  });

  it('reacts to the openSidebar and closeSidebar window events', () => {
    renderRoutes(routes, { path: '/dashboard', auth: undefined });
    act(() => {
      window.dispatchEvent(new Event(CLOSE_SIDEBAR_EVENT));
    });
    expect(sideMenu()).toHaveAttribute('data-state', 'closed');
    act(() => {
      window.dispatchEvent(new Event(OPEN_SIDEBAR_EVENT));
    });
    expect(sideMenu()).toHaveAttribute('data-state', 'open');
  });

  it('is always closed at 768px and less, even when stored open, and closes after each route change there', async () => {
    localStorage.setItem(SIDEMENU_STORAGE_KEY, 'true');
    setViewportWidth(768);
    const { router } = renderRoutes(routes, { path: '/dashboard', auth: undefined });
    expect(sideMenu()).toBeNull();
    act(() => {
      window.dispatchEvent(new Event(OPEN_SIDEBAR_EVENT));
    });
    expect(sideMenu()).toHaveAttribute('data-state', 'open');
    await act(() => router.navigate('/marketplace'));
    await waitFor(() => expect(sideMenu()).toBeNull());
    // Mobile toggling never overwrites the desktop preference.
    expect(localStorage.getItem(SIDEMENU_STORAGE_KEY)).toBe('true');
  });

  it('on mobile opens as a drawer that takes focus and closes with Escape', () => {
    setViewportWidth(375);
    renderRoutes(routes, { path: '/dashboard', auth: undefined });
    act(() => {
      window.dispatchEvent(new Event(OPEN_SIDEBAR_EVENT));
    });
    expect(sideMenu()).toHaveAttribute('data-state', 'open');
    expect(sideMenu()).toContainElement(document.activeElement as HTMLElement);
    act(() => {
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    });
    expect(sideMenu()).toBeNull();
  });

  it('closes when the window shrinks to mobile width', () => {
    renderRoutes(routes, { path: '/dashboard', auth: undefined });
    expect(sideMenu()).toHaveAttribute('data-state', 'open');
    act(() => setViewportWidth(700));
    expect(sideMenu()).toBeNull();
    act(() => setViewportWidth(1200));
    expect(sideMenu()).toHaveAttribute('data-state', 'open');
  });

  it('shows the credits box only when logged in and not in the Admin profile; anonymous users get a log-in prompt', async () => {
    const anon = renderRoutes(routes, { path: '/dashboard', auth: undefined });
    expect(screen.getByText('Get corrections in minutes')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Buy credits/ })).not.toBeInTheDocument();
    anon.unmount();
    const personal = renderRoutes(routes, { path: '/dashboard', auth: fakeUser() });
    expect(screen.getByRole('link', { name: /Buy credits/ })).toHaveAttribute('href', '/credits');
    personal.unmount();
    renderRoutes(routes, { path: '/admin/map', auth: fakeUser({ isAdmin: true }) });
    expect(screen.queryByRole('link', { name: /Buy credits/ })).not.toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Admin' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('offers a subscription without naming a plan the catalogue does not have (no "Pro")', () => {
    renderRoutes(routes, { path: '/dashboard', auth: fakeUser() });
    const menu = sideMenu() as HTMLElement;
    expect(within(menu).getByText('Upgrade to a subscription')).toBeInTheDocument();
    expect(within(menu).getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/subscriptions');
    expect(menu).not.toHaveTextContent(/\bPro\b/);
  });

  it('has a user menu whose account entry points to /settings/billing', async () => {
    const user = userEvent.setup();
    renderRoutes(routes, { path: '/dashboard', auth: fakeUser() });
    await user.click(screen.getByRole('button', { name: 'Account menu of Ada Surveyor' }));
    expect(screen.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/settings/billing');
  });
});
