import type { LedgerEntry } from '@portal/contract';
import { screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { AuthContext } from '../../../src/features/auth/auth-context';
import { CreditsPage } from '../../../src/features/billing/CreditsPage';
import { ledgerNote } from '../../../src/features/billing/ledger-note';
import { formatterFor } from '../../../src/lib/format';
import { fakeUser } from '../support/factories';
import { i18nIn } from '../support/i18n';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const entry = (over: Partial<LedgerEntry>): LedgerEntry => ({
  id: '1',
  kind: 'activation_spend',
  delta: -20,
  balanceAfter: 80,
  note: null,
  createdAt: '2026-11-28T09:00:00.000Z',
  ...over,
});

const ENTRIES: LedgerEntry[] = [
  entry({
    id: '1',
    note: '2 days of Netherlands RTK for rover-1',
    noteCode: 'activation',
    noteParams: { days: 2, network: 'Netherlands RTK', account: 'rover-1' },
  }),
  entry({
    id: '2',
    kind: 'rinex_spend',
    delta: -3,
    note: 'RINEX DELF00NLD, 3 hours from 2026-11-27T08:00:00.000Z',
    noteCode: 'rinex',
    noteParams: { mountpoint: 'DELF00NLD', count: 3, at: '2026-11-27T08:00:00.000Z' },
  }),
  entry({
    id: '3',
    kind: 'refund',
    delta: 3,
    note: 'RINEX DELF00NLD: the job failed (conversion_failed)',
    noteCode: 'rinex_failed',
    noteParams: { mountpoint: 'DELF00NLD', reason: 'conversion_failed' },
  }),
  entry({ id: '4', kind: 'admin_grant', delta: 50, note: 'Goodwill after outage' }),
];

describe('token history notes (issue 32)', () => {
  it('the credits page words what the server wrote in reasons and local dates, never its codes or ISO times', async () => {
    server.use(
      http.get('*/api/tokens/history', () => HttpResponse.json({ tokenAmount: 130, entries: ENTRIES })),
      http.get('*/api/tokenProducts', () => HttpResponse.json([])),
      http.get('*/api/networks', () => HttpResponse.json({ items: [] })),
      http.get('*/api/meta/pages/:page', () => HttpResponse.json({ title: '', description: '' })),
    );
    renderWithProviders(
      <AuthContext.Provider value={fakeUser()}>
        <CreditsPage />
      </AuthContext.Provider>,
      { route: '/credits' },
    );
    expect(await screen.findByText('2 days of Netherlands RTK for rover-1')).toBeInTheDocument();
    const at = formatterFor('en').dateTime('2026-11-27T08:00:00.000Z');
    expect(screen.getByText(`RINEX DELF00NLD, 3 hours from ${at}`)).toBeInTheDocument();
    expect(
      screen.getByText('RINEX DELF00NLD: the conversion failed, so the tokens were given back'),
    ).toBeInTheDocument();
    expect(screen.getByText('Goodwill after outage')).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/conversion_failed|2026-11-2\dT/);
  });

  it('in Dutch the same entries read in Dutch; an administrator’s reason stays as written', async () => {
    const t = i18nIn('nl').getFixedT('nl', 'billing');
    const nlDate = formatterFor('nl').dateTime;
    expect(ENTRIES.map((e) => ledgerNote(e, t, nlDate))).toEqual([
      '2 dagen Netherlands RTK voor rover-1',
      `RINEX DELF00NLD, 3 uur vanaf ${nlDate('2026-11-27T08:00:00.000Z')}`,
      'RINEX DELF00NLD: de conversie is mislukt, dus de tokens zijn teruggegeven',
      'Goodwill after outage',
    ]);
    expect(ledgerNote(entry({ noteCode: 'taken_back_refunded' }), t, nlDate)).toBe(
      'Teruggenomen: de betaling werd terugbetaald',
    );
  });
});
