import { screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { AuthContext } from '../../../src/features/auth/auth-context';
import { StationPopup } from '../../../src/features/catalogue/StationPopup';
import { network, STATION_ID, station, user } from '../support/factories';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

beforeEach(() =>
  server.use(
    http.get('*/api/networks', () => HttpResponse.json({ items: [network()] })),
    http.get(`*/api/stations/${STATION_ID}`, () => HttpResponse.json(station())),
  ),
);

describe('the station popup on the coverage map', () => {
  it('leads a logged-in user to /rinex with the station filled in', async () => {
    renderWithProviders(<StationPopup scope="public" id={STATION_ID} />, {
      wrapper: (children) => <AuthContext.Provider value={user}>{children}</AuthContext.Provider>,
    });
    expect(await screen.findByRole('link', { name: 'RINEX' })).toHaveAttribute('href', '/rinex?station=DELF00NLD');
  });

  it("names the network's reference frame, epoch and national grid", async () => {
    server.use(
      http.get(`*/api/stations/${STATION_ID}`, () =>
        HttpResponse.json(
          station({
            referenceFrame: { frame: 'ETRS89', realisation: 'ETRF2000', epoch: 2010.5, nationalGrid: 'RD/NAP' },
          }),
        ),
      ),
    );
    renderWithProviders(<StationPopup scope="public" id={STATION_ID} />);
    expect(await screen.findByText('ETRS89 ETRF2000 · epoch 2010.5 · related to RD/NAP')).toBeInTheDocument();
  });

  it('says when the network states no reference frame', async () => {
    renderWithProviders(<StationPopup scope="public" id={STATION_ID} />);
    expect(await screen.findByText('Not stated by the network')).toBeInTheDocument();
  });

  it('flags to admins a station whose sent position contradicts its catalogue entry, and not to the public (issue 32)', async () => {
    const mismatched = station({
      integrity: {
        state: 'warning',
        reasons: [
          {
            code: 'position_mismatch',
            level: 'warning',
            message: 'The reference position the station sends is 9123456.00 m horizontally from the catalogue.',
            since: '2026-11-28T10:00:00.000Z',
          },
          {
            code: 'descriptor_mismatch',
            level: 'warning',
            message: 'The station sends receiver TRIMBLE NETR9 (the catalogue: SEPT POLARX5).',
            since: '2026-11-28T10:00:00.000Z',
          },
        ],
        excluded: false,
        override: false,
        acknowledgedAt: null,
      },
    });
    server.use(
      http.get('*/api/admin/networks', () => HttpResponse.json({ items: [network()] })),
      http.get(`*/api/admin/stations/${STATION_ID}`, () => HttpResponse.json(mismatched)),
      http.get(`*/api/stations/${STATION_ID}`, () => HttpResponse.json(mismatched)),
    );
    const admin = renderWithProviders(<StationPopup scope="admin" id={STATION_ID} />);
    const flags = await screen.findAllByTestId('catalogue-mismatch');
    expect(flags.map((f) => f.textContent)).toEqual([
      'The position the station sends differs from its catalogue entry: correct the entry or re-survey the station.',
      'The receiver or antenna the station sends (1033) differs from its catalogue entry: correct the entry.',
    ]);
    admin.unmount();
    renderWithProviders(<StationPopup scope="public" id={STATION_ID} />);
    expect(await screen.findByText('DELF00NLD')).toBeInTheDocument();
    expect(screen.queryByTestId('catalogue-mismatch')).toBeNull();
  });

  it('raises no flag for a station that agrees with its catalogue entry', async () => {
    server.use(
      http.get('*/api/admin/networks', () => HttpResponse.json({ items: [network()] })),
      http.get(`*/api/admin/stations/${STATION_ID}`, () => HttpResponse.json(station())),
    );
    renderWithProviders(<StationPopup scope="admin" id={STATION_ID} />);
    expect(await screen.findByText('DELF00NLD')).toBeInTheDocument();
    expect(screen.queryByTestId('catalogue-mismatch')).toBeNull();
  });

  it('offers nothing to buy to a visitor who is not logged in', async () => {
    renderWithProviders(<StationPopup scope="public" id={STATION_ID} />);
    expect(await screen.findByText('DELF00NLD')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'RINEX' })).not.toBeInTheDocument();
  });

  it('says when the station fails its integrity checks, naming the failing reasons, and that it still serves', async () => {
    const since = '2026-11-28T10:00:00.000Z';
    server.use(
      http.get(`*/api/stations/${STATION_ID}`, () =>
        HttpResponse.json(
          station({
            integrity: {
              state: 'failing',
              reasons: [
                { code: 'position_moved', level: 'failing', message: 'moved 5.0 cm horizontally', since },
                { code: 'late', level: 'warning', message: 'frames arrive 3 s late', since },
              ],
              excluded: true,
              override: false,
              acknowledgedAt: null,
            },
          }),
        ),
      ),
    );
    renderWithProviders(<StationPopup scope="public" id={STATION_ID} />);
    expect(await screen.findByTestId('station-integrity')).toHaveTextContent(
      'Failing its integrity checks (reference position moved): left out of the nearest-station choice. Its own mountpoint still serves.',
    );
  });

  it('says nothing of integrity while the checks pass', async () => {
    renderWithProviders(<StationPopup scope="public" id={STATION_ID} />);
    expect(await screen.findByText('DELF00NLD')).toBeInTheDocument();
    expect(screen.queryByTestId('station-integrity')).not.toBeInTheDocument();
  });
});
