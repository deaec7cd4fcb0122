import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdminUsersPage } from '../../../src/features/customers/AdminUsersPage';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const people = [
  {
    id: '11111111-1111-4111-8111-111111111111',
    email: 'ann@example.test',
    displayName: 'Ann',
    isAdmin: true,
    disabled: false,
    createdAt: '2026-11-01T10:00:00Z',
  },
  {
    id: '22222222-2222-4222-8222-222222222222',
    email: 'bob@example.test',
    displayName: 'Bob',
    isAdmin: false,
    disabled: false,
    createdAt: '2026-11-02T10:00:00Z',
  },
];
const searches: Array<string | null> = [];
const patches: unknown[] = [];

beforeEach(() =>
  server.use(
    http.get('*/api/meta/pages/:page', () => new HttpResponse(null, { status: 404 })),
    http.get('*/api/admin/users', ({ request }) => {
      const params = new URL(request.url).searchParams;
      const search = params.get('search');
      searches.push(search);
      const items = people.filter((p) => !search || p.email.includes(search));
      return HttpResponse.json({
        items,
        total: items.length,
        limit: Number(params.get('limit')),
        offset: Number(params.get('offset')),
      });
    }),
    http.patch('*/api/admin/users/:id', async ({ request, params }) => {
      const body = (await request.json()) as Record<string, boolean>;
      patches.push({ id: params.id, ...body });
      const person = people.find((p) => p.id === params.id);
      return HttpResponse.json({ ...person, ...body });
    }),
  ),
);
afterEach(() => {
  searches.length = 0;
  patches.length = 0;
});

describe('admin users page', () => {
  it('lists users and asks the server to search', async () => {
    const u = userEvent.setup();
    renderWithProviders(<AdminUsersPage />);
    expect(await screen.findByText('bob@example.test')).toBeInTheDocument();
    expect(screen.getByText('ann@example.test')).toBeInTheDocument();
    await u.type(screen.getByLabelText('Search users:'), 'bob');
    await screen.findByText('1–1 of 1');
    expect(screen.queryByText('ann@example.test')).not.toBeInTheDocument();
    expect(searches.at(-1)).toBe('bob');
  });

  it('disables a user from the row action after a confirmation', async () => {
    const u = userEvent.setup();
    renderWithProviders(<AdminUsersPage />);
    await screen.findByText('bob@example.test');
    const disable = screen.getAllByRole('button', { name: 'Disable' });
    await u.click(disable[1] as HTMLElement);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Disable bob@example.test?')).toBeInTheDocument();
    expect(patches).toEqual([]);
    await u.click(within(dialog).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(patches).toEqual([{ id: people[1]?.id, disabled: true }]));
  });

  it('finds a customer with the picker as the admin types, and opens their page', async () => {
    const u = userEvent.setup();
    renderWithProviders(
      <Routes>
        <Route path="/" element={<AdminUsersPage />} />
        <Route path="/admin/users/:userId" element={<p>customer page</p>} />
      </Routes>,
    );
    const picker = await screen.findByRole('combobox', { name: 'Open a customer:' });
    await u.type(picker, 'bo');
    const option = await screen.findByRole('option', { name: /bob@example\.test/ });
    await u.keyboard('{ArrowDown}');
    expect(option).toHaveAttribute('aria-selected', 'true');
    await u.keyboard('{Enter}');
    expect(await screen.findByText('customer page')).toBeInTheDocument();
    expect(searches).toContain('bo');
  });
});
