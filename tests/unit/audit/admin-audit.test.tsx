import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdminAuditPage } from '../../../src/features/audit/AdminAuditPage';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const USER = '55555555-5555-4555-8555-555555555555';
const grant = {
  id: '1',
  at: '2026-11-26T10:00:00Z',
  actorUserId: 'a1',
  actorEmail: 'ops@example.test',
  action: 'tokens.grant',
  targetType: 'user',
  targetId: USER,
  before: { balance: 10 },
  after: { balance: 60 },
  ip: '203.0.113.7',
};
const queries: URLSearchParams[] = [];

beforeEach(() =>
  server.use(
    // The page's title and description: none stored, so the defaults.
    http.get('*/api/meta/pages/:page', () =>
      HttpResponse.json({ code: 'not_found', message: 'No meta.' }, { status: 404 }),
    ),
    http.get('*/api/admin/audit', ({ request }) => {
      const params = new URL(request.url).searchParams;
      queries.push(params);
      const items = params.get('action') === 'settings.' ? [] : [grant];
      return HttpResponse.json({
        items,
        total: items.length,
        limit: Number(params.get('limit')),
        offset: Number(params.get('offset')),
      });
    }),
  ),
);
afterEach(() => {
  queries.length = 0;
});

describe('/admin/audit', () => {
  it('shows who did what to which record, from where, with before and after', async () => {
    renderWithProviders(<AdminAuditPage />);
    const entry = await screen.findByTestId('audit-entry');
    expect(within(entry).getByText('tokens.grant')).toBeInTheDocument();
    expect(within(entry).getByText('ops@example.test')).toBeInTheDocument();
    expect(within(entry).getByText('203.0.113.7')).toBeInTheDocument();
    expect(within(entry).getByRole('link', { name: `user ${USER}` })).toHaveAttribute('href', `/admin/users/${USER}`);
    await userEvent.setup().click(within(entry).getByText('Before and after'));
    expect(within(entry).getByText(/"balance": 10/)).toBeInTheDocument();
    expect(within(entry).getByText(/"balance": 60/)).toBeInTheDocument();
    expect(screen.getByText('1 entry')).toBeInTheDocument();
  });

  it('asks the server with the filters typed, and says when nothing matches', async () => {
    renderWithProviders(<AdminAuditPage />);
    await screen.findByTestId('audit-entry');
    await userEvent.setup().type(screen.getByLabelText('Action:'), 'settings.');
    expect(await screen.findByText('No entries match these filters.')).toBeInTheDocument();
    await waitFor(() => expect(queries.at(-1)?.get('action')).toBe('settings.'));
    expect(queries.at(-1)?.get('limit')).toBe('25');
  });
});
