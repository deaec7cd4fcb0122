import { screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { AuthContext, isFirstSession } from '../../../src/features/auth/auth-context';
import { DashboardPage } from '../../../src/features/dashboard/DashboardPage';
import { fakeUser } from '../support/factories';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

function renderDashboard(firstSession: boolean) {
  server.use(http.get('*/api/meta/pages/:page', () => new HttpResponse(null, { status: 404 })));
  renderWithProviders(
    <AuthContext.Provider value={fakeUser({ username: 'Ann', firstSession })}>
      <DashboardPage />
    </AuthContext.Provider>,
    { route: '/dashboard' },
  );
}

describe('the dashboard greeting (issue 32)', () => {
  it('welcomes a user in the session that made their account, and welcomes back a returning one', () => {
    renderDashboard(true);
    expect(screen.getByText('Welcome to Meridian RTK, Ann.')).toBeInTheDocument();
    expect(screen.queryByText(/Welcome back/)).not.toBeInTheDocument();
  });

  it('says Welcome back once the user has signed in again since', () => {
    renderDashboard(false);
    expect(screen.getByText('Welcome back, Ann.')).toBeInTheDocument();
  });

  it('the first session is the sign-in that made the account (Firebase metadata)', () => {
    const created = 'Sat, 28 Nov 2026 09:00:00 GMT';
    expect(isFirstSession({ creationTime: created, lastSignInTime: 'Sat, 28 Nov 2026 09:00:01 GMT' })).toBe(true);
    expect(isFirstSession({ creationTime: created, lastSignInTime: 'Sun, 29 Nov 2026 08:00:00 GMT' })).toBe(false);
    expect(isFirstSession({})).toBe(false);
  });
});
