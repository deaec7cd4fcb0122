import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { OperatorDashboardPage } from '../../../src/features/operator/OperatorDashboardPage';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

// uPlot draws on a canvas jsdom does not have; the page's figures are what this test reads.
vi.mock('../../../src/features/operator/DayChart', () => ({
  DayChart: ({ label, series }: { label: string; series: { label: string; values: number[] }[] }) => (
    <figure aria-label={label}>{series.map((s) => `${s.label}: ${s.values.join(',')}`).join('; ')}</figure>
  ),
}));

const eur = (amount: number) => [{ currency: 'EUR', amount }];
let dashboard = {
  generatedAt: '2026-11-27T00:00:00Z',
  windowDays: 30,
  activeSubscriptions: 14,
  monthlyRecurringRevenue: eur(123_400),
  revenue: eur(250_000),
  refunds: eur(4_900),
  tokensSold: 1200,
  tokensSpent: 300,
  roversConnected: 9,
  liveComplete: false,
  stationsWithData: 41,
  stations: 44,
  days: [
    { day: '2026-11-25', revenue: eur(100_000), refunds: [], tokensSold: 200, tokensSpent: 0 },
    { day: '2026-11-26', revenue: eur(150_000), refunds: eur(4_900), tokensSold: 1000, tokensSpent: 300 },
  ],
  networks: [
    {
      id: 'n1',
      slug: 'nl',
      name: 'Netherlands RTK',
      activeSubscriptions: 11,
      monthlyRecurringRevenue: eur(99_900),
      roversConnected: 7,
      stations: 30,
      stationsWithData: 29,
      tokensSpent: 250,
    },
  ],
};
beforeEach(() =>
  server.use(
    // The page's title and description: none stored, so the defaults.
    http.get('*/api/meta/pages/:page', () =>
      HttpResponse.json({ code: 'not_found', message: 'No meta.' }, { status: 404 }),
    ),
    http.get('*/api/admin/operator', () => HttpResponse.json(dashboard)),
  ),
);

describe('/admin/dashboard', () => {
  it("shows the operator's figures, says a partial rover count is a floor, and charts each day", async () => {
    renderWithProviders(<OperatorDashboardPage />);
    const stats = await screen.findByTestId('operator-stats');
    const card = (title: string) => within(stats).getByText(title).parentElement?.parentElement as HTMLElement;
    expect(card('Active subscriptions')).toHaveTextContent('14');
    expect(card('Monthly recurring revenue')).toHaveTextContent('1,234.00');
    expect(card('Revenue, 30 days')).toHaveTextContent(/2,500\.00.*Refunded: €49\.00/);
    expect(card('Tokens sold / spent, 30 days')).toHaveTextContent('1,200 / 300');
    expect(card('Rovers connected now')).toHaveTextContent('Not every caster answered: at least this many.');
    expect(card('Stations with data now')).toHaveTextContent('41 of 44');
    expect(screen.getByRole('figure', { name: 'Revenue and refunds per day (EUR)' })).toHaveTextContent(
      'Revenue: 100000,150000; Refunds: 0,4900',
    );
    expect(screen.getByRole('figure', { name: 'Tokens sold and spent per day' })).toHaveTextContent(
      'Tokens sold: 200,1000; Tokens spent: 0,300',
    );
    expect(screen.getByText('Netherlands RTK')).toBeInTheDocument();
    expect(screen.getByText('29 of 30')).toBeInTheDocument();
  });

  it('shows no floor warning when every caster answered', async () => {
    dashboard = { ...dashboard, liveComplete: true };
    renderWithProviders(<OperatorDashboardPage />);
    await screen.findByTestId('operator-stats');
    expect(screen.queryByText('Not every caster answered: at least this many.')).not.toBeInTheDocument();
  });
});
