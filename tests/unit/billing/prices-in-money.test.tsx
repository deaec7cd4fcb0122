import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { AuthContext } from '../../../src/features/auth/auth-context';
import { CreditsPage } from '../../../src/features/billing/CreditsPage';
import { MarketplacePage } from '../../../src/features/billing/MarketplacePage';
import { tokenPacks, tokensInMoney } from '../../../src/features/billing/token-money';
import { fakeUser, network, OTHER_NETWORK_ID, tokenTables } from '../support/factories';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const networks = [
  network(),
  network({ id: OTHER_NETWORK_ID, slug: 'be-rtk', name: 'Belgium RTK', tokenPricePerDay: 14 }),
];

function serve() {
  server.use(
    http.get('*/api/meta/pages/:page', () => HttpResponse.json({ title: '', description: '' })),
    http.get('*/api/networks', () => HttpResponse.json({ items: networks })),
    http.get('*/api/tokenProducts', () => HttpResponse.json(tokenTables)),
    // The coverage map is not what this is about (jsdom cannot lay it out): its markers fail to load.
    http.get('*/api/stations', () =>
      HttpResponse.json({ code: 'unavailable', message: 'not in this test' }, { status: 503 }),
    ),
  );
}

describe('prices in money (issue 32)', () => {
  it('a price in tokens is a range in money, from the cheapest to the dearest token of the packs', () => {
    const packs = tokenPacks(tokenTables);
    expect(packs.map((p) => p.tokens)).toEqual([100, 2000]);
    expect(tokensInMoney(packs, 10)).toEqual({ low: 80, high: 100, currency: 'EUR' });
    expect(tokensInMoney(packs, 14)).toEqual({ low: 112, high: 140, currency: 'EUR' });
    expect(tokensInMoney([], 10)).toBeUndefined();
  });

  it('the marketplace, logged out, prices each network per day in tokens and euros, and says what the packs cost', async () => {
    serve();
    renderWithProviders(<MarketplacePage />, { route: '/marketplace' });
    const table = await screen.findByRole('region', { name: 'Networks' });
    expect(await within(table).findByText('10 tokens (€0.80–€1.00) per day')).toBeInTheDocument();
    expect(within(table).getByText('14 tokens (€1.12–€1.40) per day')).toBeInTheDocument();
    expect(screen.getByTestId('token-packs')).toHaveTextContent(
      'Tokens come in packs: 100 tokens for €10.00, 2000 tokens for €160.00.',
    );
  });

  it('the credits page says what 100 tokens cost and buy on each network', async () => {
    serve();
    server.use(
      http.get('*/api/tokens/history', () => HttpResponse.json({ tokenAmount: 0, entries: [] })),
      http.get('*/api/subscriptions', () => HttpResponse.json({ subscriptions: [], tokenAmount: 0 })),
      http.get('*/api/billing/tax-info', () => HttpResponse.json({ pricesIncludeTax: true })),
    );
    renderWithProviders(
      <AuthContext.Provider value={fakeUser()}>
        <CreditsPage />
      </AuthContext.Provider>,
      { route: '/credits' },
    );
    const box = await screen.findByTestId('what-tokens-buy');
    expect(box).toHaveTextContent('What 100 tokens (€8.00–€10.00) buy');
    expect(within(box).getByText('10 days of Netherlands RTK (10 tokens a day)')).toBeInTheDocument();
    expect(within(box).getByText('7 days of Belgium RTK (14 tokens a day)')).toBeInTheDocument();
  });
});
