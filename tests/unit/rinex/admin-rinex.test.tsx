import type { AdminRinexNetwork } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { AdminRinexPage } from '../../../src/features/rinex/AdminRinexPage';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const NETWORK_ID = '11111111-1111-4111-8111-111111111111';
const USER_ID = '77777777-7777-4777-8777-777777777777';
const H = 3_600_000;
const from = Date.UTC(2026, 9, 25, 11);

function network(overrides: Partial<AdminRinexNetwork> = {}): AdminRinexNetwork {
  return {
    id: NETWORK_ID,
    slug: 'dutch-rtk',
    name: 'Dutch RTK',
    status: 'active',
    tokenPricePerDay: 10,
    rinexPricePerHour: null,
    effectivePricePerHour: 1,
    retentionDays: 30,
    stations: 2,
    archivedHours: 50,
    archivedBytes: 120_000_000,
    ...overrides,
  };
}

function setup() {
  const sent: { patch?: unknown; job?: unknown } = {};
  server.use(
    http.get('*/api/meta/pages/:page', () =>
      HttpResponse.json({ code: 'not_found', message: 'none' }, { status: 404 }),
    ),
    http.get('*/api/admin/rinex/networks', () => HttpResponse.json({ items: [network()] })),
    http.get('*/api/admin/rinex/totals', () =>
      HttpResponse.json({
        stations: 2,
        hours: 50,
        bytes: 400_000_000,
        storedBytes: 120_000_000,
        oldestHour: new Date(from).toISOString(),
        newestHour: new Date(from + 49 * H).toISOString(),
        jobs: { queued: 1, running: 2, done: 7 },
      }),
    ),
    http.get('*/api/admin/rinex/jobs', () => HttpResponse.json({ items: [] })),
    http.get('*/api/admin/users', () =>
      HttpResponse.json({
        items: [
          {
            id: USER_ID,
            email: 'carla@example.test',
            displayName: 'Carla',
            isAdmin: false,
            disabled: false,
            createdAt: '2026-11-01T10:00:00Z',
          },
        ],
        total: 1,
        limit: 8,
        offset: 0,
      }),
    ),
    http.get('*/api/admin/rinex/stations', () =>
      HttpResponse.json({
        items: [
          {
            id: '33333333-3333-4333-8333-333333333333',
            mountpoint: 'DELF00NLD',
            coverage: Array.from({ length: 720 }, (_, i) => (i < 48 ? 100 : i === 48 ? 40 : 0)),
            coverageFrom: new Date(from).toISOString(),
            archivedHours: 49,
            bytes: 200_000_000,
            storedBytes: 60_000_000,
          },
        ],
      }),
    ),
    http.patch('*/api/admin/rinex/networks/:id', async ({ request }) => {
      sent.patch = await request.json();
      return HttpResponse.json(network({ rinexPricePerHour: 4, effectivePricePerHour: 4, retentionDays: 60 }));
    }),
    http.post('*/api/admin/rinex/jobs', async ({ request }) => {
      sent.job = await request.json();
      return HttpResponse.json({ code: 'no_data_in_window', message: 'No data in these hours.' }, { status: 409 });
    }),
  );
  renderWithProviders(<AdminRinexPage />);
  return { user: userEvent.setup(), sent };
}

describe('/admin/rinex', () => {
  it('shows the archive totals and each network with its RINEX price, retention and size', async () => {
    setup();
    expect(await screen.findByText('120 MB')).toBeInTheDocument();
    expect(screen.getByText('1 · 2 · 7')).toBeInTheDocument();
    const row = await screen.findByTestId('admin-rinex-network');
    expect(row).toHaveTextContent('RINEX price: 1 token (default) · Kept: 30 days · Archive: 50 h · 120 MB');
  });

  it("changes a network's price and retention", async () => {
    const { user, sent } = setup();
    const row = await screen.findByTestId('admin-rinex-network');
    await user.click(within(row).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'RINEX of Dutch RTK' });
    await user.type(within(dialog).getByLabelText('Tokens per station-hour:'), '4');
    const retention = within(dialog).getByLabelText('Keep the archive (days):');
    await user.clear(retention);
    await user.type(retention, '60');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent.patch).toEqual({ rinexPricePerHour: 4, retentionDays: 60 }));
  });

  it("draws each station's coverage strip of the last 30 days", async () => {
    const { user } = setup();
    const row = await screen.findByTestId('admin-rinex-network');
    await user.click(within(row).getByRole('button', { name: 'Coverage' }));
    const strip = await screen.findByRole('img', { name: 'Coverage of DELF00NLD, one mark per hour' });
    expect(strip.querySelectorAll('rect')).toHaveLength(49);
    expect(screen.getByText('49 h · 60 MB')).toBeInTheDocument();
  });

  it('makes a free job for a user and shows why the server refused it', async () => {
    const { user, sent } = setup();
    await screen.findByTestId('admin-rinex-network');
    await user.type(screen.getByRole('combobox', { name: 'Customer:' }), 'carla');
    await user.click(await screen.findByRole('option', { name: /carla@example\.test/ }));
    await user.type(screen.getByLabelText('Mountpoint:'), 'DELF00NLD');
    await user.type(screen.getByLabelText('From (UTC):'), '2026-10-25T11:00');
    await user.type(screen.getByLabelText('To (UTC):'), '2026-10-25T13:00');
    await user.click(screen.getByRole('button', { name: 'Make job' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The job could not be made: No data in these hours.');
    expect(sent.job).toMatchObject({
      userId: USER_ID,
      station: 'DELF00NLD',
      from: '2026-10-25T11:00:00Z',
      to: '2026-10-25T13:00:00Z',
      interval: 30,
    });
  });
});
