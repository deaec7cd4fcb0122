import { screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuthContext } from '../../../src/features/auth/auth-context';
import { StationPopup } from '../../../src/features/catalogue/StationPopup';
import { network, user } from '../accounts/fixtures';
import { renderWithProviders } from '../support/render';

const STATION_ID = '33333333-3333-4333-8333-333333333333';

const server = setupServer(
  http.get('*/api/networks', () => HttpResponse.json({ items: [network()] })),
  http.get(`*/api/stations/${STATION_ID}`, () =>
    HttpResponse.json({
      id: STATION_ID,
      networkId: network().id,
      networkSlug: 'nl-rtk',
      mountpoint: 'DELF00NLD',
      identifier: 'Delft',
      country: 'NLD',
      latitude: 52,
      longitude: 4.37,
      heightM: null,
      ecef: null,
      receiver: '',
      antenna: '',
      format: 'RTCM 3.3',
      formatDetails: '',
      navSystem: 'GPS',
      carrier: 2,
      bitrate: 0,
      status: 'online',
      lastDataAt: null,
      createdAt: '2026-11-01T00:00:00.000Z',
      updatedAt: '2026-11-01T00:00:00.000Z',
    }),
  ),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('the station popup on the coverage map', () => {
  it('leads a logged-in user to /rinex with the station filled in', async () => {
    renderWithProviders(<StationPopup scope="public" id={STATION_ID} />, {
      wrapper: (children) => <AuthContext.Provider value={user}>{children}</AuthContext.Provider>,
    });
    expect(await screen.findByRole('link', { name: 'RINEX' })).toHaveAttribute('href', '/rinex?station=DELF00NLD');
  });

  it('offers nothing to buy to a visitor who is not logged in', async () => {
    renderWithProviders(<StationPopup scope="public" id={STATION_ID} />);
    expect(await screen.findByText('DELF00NLD')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'RINEX' })).not.toBeInTheDocument();
  });
});
