import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LayoutWithoutSidebar } from '../../src/app/layout/AppLayout';
import { Header } from '../../src/app/layout/Header';
import { UserInfoLayout } from '../../src/app/layout/UserInfoLayout';
import { routes } from '../../src/app/routes';
import { Modal } from '../../src/components/modal';
import { userInfoQueryKey } from '../../src/features/auth/auth-context';
import { fetchUserInfo } from '../../src/features/auth/user-info.api';
import { fakeUser } from './support/factories';
import { initTestI18n } from './support/i18n';
import { server } from './support/server';
import { renderRoutes, setViewportWidth, testQueryClient } from './support/shell';

beforeEach(() =>
  server.use(
    http.get('*/api/subscriptions', () => HttpResponse.json({ subscriptions: [], tokenAmount: 7 })),
    http.get('*/api/user', () => HttpResponse.json({ code: 'internal', message: 'down' }, { status: 500 })),
  ),
);
beforeAll(() => {
  initTestI18n();
});
beforeEach(() => {
  localStorage.clear();
  setViewportWidth(1440);
});

describe('header without a login modal', () => {
  it('Log in goes to /login', async () => {
    const user = userEvent.setup();
    const { router } = renderRoutes(
      [
        { path: '/dashboard', element: <Header mobileMenuOpen={false} onToggleMobileMenu={() => undefined} /> },
        { path: '/login', element: <p>login page</p> },
      ],
      { path: '/dashboard', auth: undefined },
    );
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});

describe('layouts', () => {
  it('the layout without a sidebar has a header and a 1200px main column, no side menu', () => {
    renderRoutes([{ path: '/x', element: <LayoutWithoutSidebar>content</LayoutWithoutSidebar> }], {
      path: '/x',
      auth: undefined,
    });
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveTextContent('content');
    expect(screen.getByRole('main').firstElementChild).toHaveClass('max-w-content');
    expect(document.getElementById('side-menu')).toBeNull();
  });

  it('the user-info page shows the user and a Logout button in its sidebar', async () => {
    const user = userEvent.setup();
    let loggedOut = false;
    const { router } = renderRoutes(
      [
        {
          path: '/settings',
          element: (
            <UserInfoLayout>
              <p>settings</p>
            </UserInfoLayout>
          ),
        },
        { path: '/dashboard', element: <p>dash</p> },
      ],
      {
        path: '/settings',
        auth: fakeUser({
          logout: async () => {
            loggedOut = true;
          },
        }),
      },
    );
    const aside = screen.getByRole('complementary', { name: 'Your profile' });
    expect(aside).toHaveTextContent('Ada Surveyor');
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(loggedOut).toBe(true);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });
});

describe('admin guard', () => {
  it('treats a failed /user fetch as not admin: Restricted Access', async () => {
    const client = testQueryClient();
    await client.fetchQuery({ queryKey: userInfoQueryKey('u1'), queryFn: fetchUserInfo }).catch(() => undefined);
    renderRoutes(routes, { path: '/admin/users', auth: fakeUser({ isAdmin: undefined }), client });
    expect(await screen.findByRole('heading', { name: 'Restricted Access' }, { timeout: 3000 })).toBeInTheDocument();
  });
});

describe('modal focus', () => {
  it('keeps Tab inside the dialog', async () => {
    const user = userEvent.setup();
    render(
      <>
        <button type="button">outside</button>
        <Modal open onClose={() => undefined} label="Test dialog">
          <button type="button">first</button>
          <button type="button">last</button>
        </Modal>
      </>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Test dialog' });
    // The × button comes first, then the content.
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    for (let i = 0; i < 5; i += 1) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    await user.tab({ shift: true });
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
  });
});
