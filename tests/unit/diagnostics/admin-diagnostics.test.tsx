import type { LoginFailure } from '@portal/contract';
import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { LoginFailuresSection } from '../../../src/features/diagnostics/AdminDiagnostics';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const failure = (overrides: Partial<LoginFailure>): LoginFailure => ({
  id: '1',
  reason: 'unknown_username',
  minute: '2026-11-24T10:00:00.000Z',
  count: 40,
  firstAt: '2026-11-24T10:00:01.000Z',
  lastAt: '2026-11-24T10:00:59.000Z',
  remoteAddress: '198.51.100.20',
  usernames: ['admin', 'test', 'rover1'],
  mountpoint: 'AMS1',
  userAgent: 'NTRIP scanner',
  ntripVersion: 1,
  tls: false,
  ...overrides,
});

describe('admin log of unknown usernames', () => {
  it('lists the address, the names tried, the count and the answer; a folded storm reads as many addresses', async () => {
    server.use(
      http.get('*/api/admin/ntrip-login-failures', () =>
        HttpResponse.json({
          items: [failure({}), failure({ id: '2', remoteAddress: '*', reason: 'throttled', count: 900 })],
          total: 2,
          limit: 20,
          offset: 0,
        }),
      ),
    );
    renderWithProviders(<LoginFailuresSection />);
    await screen.findByText('198.51.100.20');
    const rows = within(screen.getByRole('table')).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('198.51.100.20');
    expect(rows[1]).toHaveTextContent('admin, test, rover1');
    expect(rows[1]).toHaveTextContent('40');
    expect(rows[1]).toHaveTextContent('wrong username or password');
    expect(rows[2]).toHaveTextContent('many addresses');
    expect(rows[2]).toHaveTextContent('throttled');
  });
});
