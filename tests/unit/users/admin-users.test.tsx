import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AdminUsersPage } from '../../../src/features/users/AdminUsersPage';
import { renderWithProviders } from '../support/render';

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
const grants: unknown[] = [];

const server = setupServer(
  http.get('*/api/admin/users', ({ request }) => {
    const search = new URL(request.url).searchParams.get('search');
    searches.push(search);
    const items = people.filter((p) => !search || p.email.includes(search));
    return HttpResponse.json({ items, total: items.length });
  }),
  http.patch('*/api/admin/users/:id', async ({ request, params }) => {
    const body = (await request.json()) as Record<string, boolean>;
    patches.push({ id: params.id, ...body });
    const person = people.find((p) => p.id === params.id);
    return HttpResponse.json({ ...person, ...body });
  }),
  http.put('*/api/admin/tokens', async ({ request }) => {
    const body = (await request.json()) as { userId: string; tokenAmount: number };
    grants.push(body);
    return HttpResponse.json(body);
  }),
  // Granting refreshes the billing queries; this page does not show them.
  http.get('*/api/*', () => HttpResponse.json({ code: 'not_found', message: 'Not here.' }, { status: 404 })),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  searches.length = 0;
  patches.length = 0;
  grants.length = 0;
});
afterAll(() => server.close());

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

  it('disables a user from the row action', async () => {
    const u = userEvent.setup();
    renderWithProviders(<AdminUsersPage />);
    await screen.findByText('bob@example.test');
    const disable = screen.getAllByRole('button', { name: 'Disable' });
    await u.click(disable[1] as HTMLElement);
    expect(patches).toEqual([{ id: people[1]?.id, disabled: true }]);
  });

  it('grants tokens from the manage dialog', async () => {
    const u = userEvent.setup();
    renderWithProviders(<AdminUsersPage />);
    await screen.findByText('bob@example.test');
    const editButtons = screen.getAllByRole('button', { name: /edit/i });
    await u.click(editButtons[1] as HTMLElement);
    const dialog = await screen.findByRole('dialog');
    const grant = within(dialog).getByRole('button', { name: 'Grant' });
    expect(grant).toBeDisabled();
    await u.type(within(dialog).getByLabelText('Grant tokens:'), '250');
    expect(grant).toBeDisabled();
    await u.type(within(dialog).getByLabelText('Reason:'), 'Goodwill after an outage');
    await u.click(grant);
    await within(dialog).findByText('Tokens granted.');
    expect(grants).toEqual([{ userId: people[1]?.id, tokenAmount: 250, reason: 'Goodwill after an outage' }]);
  });
});
