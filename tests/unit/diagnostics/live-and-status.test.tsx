import type { LiveSession, Station } from '@portal/contract';
import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { StationPopup } from '../../../src/features/catalogue/StationPopup';
import { LiveSessions } from '../../../src/features/diagnostics/LiveSessions';
import { station as fixtureStation, network, STATION_ID } from '../support/factories';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

const ACCOUNT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

const session = (overrides: Partial<LiveSession>): LiveSession => ({
  id: 'node-a:1',
  node: 'node-a',
  accountId: ACCOUNT,
  remoteAddress: '198.51.100.7',
  userAgent: 'NTRIP RTKLIB/2.4.3',
  ntripVersion: 1,
  tls: false,
  mountpoint: 'NL-RTK_NEAR',
  servedStation: 'DELF00NLD',
  distanceKm: 3.46,
  rtcmProfile: 'as-sent',
  constellations: null,
  connectedAt: '2026-11-24T10:00:00.000Z',
  bytesSent: 1_250_000,
  position: { latitude: 52, longitude: 4.4 },
  fix: { quality: 'fixed', ageOfCorrections: 1.2, satellites: 23, at: '2026-11-24T10:05:58.000Z' },
  ...overrides,
});

describe('live sessions of an account', () => {
  it('shows the served station and its distance, the fix and the corrections’ age, and who is connected', async () => {
    let calls = 0;
    server.use(
      http.get(`*/api/ntrip-accounts/${ACCOUNT}/live-sessions`, () => {
        calls++;
        const items =
          calls === 1
            ? [session({})]
            : [
                session({
                  tls: true,
                  rtcmProfile: 'legacy',
                  constellations: ['GPS', 'GLO'],
                  fix: { quality: 'float', ageOfCorrections: 4, satellites: 19, at: '2026-11-24T10:06:01.000Z' },
                }),
              ];
        return HttpResponse.json({ items, complete: calls === 1, at: '2026-11-24T10:06:00.000Z' });
      }),
    );
    renderWithProviders(<LiveSessions accountId={ACCOUNT} />);
    const card = await screen.findByTestId('live-session');
    expect(within(card).getByTestId('served-station')).toHaveTextContent('served by DELF00NLD, 3.5 km away');
    expect(within(card).getByTestId('fix-quality')).toHaveTextContent('RTK fixed');
    expect(card).toHaveTextContent('corrections 1.2 s old · 23 satellites · reported 2 s ago');
    expect(card).toHaveTextContent('(6 min 0 s) · 1.3 MB sent');
    expect(card).toHaveTextContent('From 198.51.100.7 · NTRIP RTKLIB/2.4.3 (NTRIP 1)');
    expect(within(card).getByTestId('session-profile')).toHaveTextContent('Gets: As sent');
    // The next refresh, without a reload: the rover dropped to float, and a node did not answer.
    expect(await screen.findByText('RTK float', {}, { timeout: 6000 })).toBeInTheDocument();
    expect(screen.getByTestId('live-session')).toHaveTextContent('(NTRIP 1 over TLS)');
    expect(screen.getByTestId('session-profile')).toHaveTextContent('Gets: Legacy (1004/1012), GPS, GLO only');
    expect(screen.getByText(/A caster node did not answer in time/)).toBeInTheDocument();
  });

  it('says what a nearest-station rover without a position is waiting for', async () => {
    server.use(
      http.get(`*/api/ntrip-accounts/${ACCOUNT}/live-sessions`, () =>
        HttpResponse.json({
          items: [session({ servedStation: null, distanceKm: null, position: null, fix: null })],
          complete: true,
          at: '2026-11-24T10:06:00.000Z',
        }),
      ),
    );
    renderWithProviders(<LiveSessions accountId={ACCOUNT} />);
    expect(await screen.findByText("waiting for the rover's position to choose a station")).toBeInTheDocument();
    expect(screen.getByText('no position (GGA) received')).toBeInTheDocument();
  });
});

const station = (overrides: Partial<Station>) =>
  fixtureStation({ status: 'offline', lastDataAt: '2026-11-24T09:15:30.000Z', ...overrides });

describe('station status from data in the popup', () => {
  it('says since when an offline station has sent nothing, and turns online on the next refresh', async () => {
    let calls = 0;
    server.use(
      http.get('*/api/networks', () => HttpResponse.json({ items: [network()] })),
      http.get(`*/api/stations/${STATION_ID}`, () => {
        calls++;
        return HttpResponse.json(
          station(calls === 1 ? {} : { status: 'online', lastDataAt: '2026-11-24T10:06:00.000Z' }),
        );
      }),
    );
    renderWithProviders(<StationPopup scope="public" id={STATION_ID} />);
    expect(await screen.findByTestId('station-liveness')).toHaveTextContent(/No data since Nov 24, 2026/);
    expect(await screen.findByText('Receiving data', {}, { timeout: 15_000 })).toBeInTheDocument();
  });

  it('says when a station never sent data', async () => {
    server.use(
      http.get('*/api/networks', () => HttpResponse.json({ items: [network()] })),
      http.get(`*/api/stations/${STATION_ID}`, () => HttpResponse.json(station({ lastDataAt: null }))),
    );
    renderWithProviders(<StationPopup scope="public" id={STATION_ID} />);
    expect(await screen.findByTestId('station-liveness')).toHaveTextContent('No data received yet');
  });
});

describe('admin feed list', () => {
  it('shows for each feed whether data arrives, its rate, last frame age, source address and since when', async () => {
    const net = network();
    const feed = (id: string, mountpoint: string) => ({
      id,
      networkId: net.id,
      stationId: id.replace(/^f/, 'e'),
      mountpoint,
      kind: 'push',
      enabled: true,
      status: 'idle',
      lastError: null,
      hasSourcePassword: true,
      ownerEmail: null,
      upstream: null,
      createdAt: '2026-11-01T00:00:00.000Z',
      updatedAt: '2026-11-01T00:00:00.000Z',
    });
    server.use(
      http.get('*/api/meta/pages/:page', () => HttpResponse.json({ code: 'not_found', message: '' }, { status: 404 })),
      http.get(`*/api/admin/networks/${net.id}`, () => HttpResponse.json(net)),
      http.get('*/api/admin/stations', () =>
        HttpResponse.json({ view: 'compact', total: 0, limit: 10_000, offset: 0, items: [] }),
      ),
      http.get('*/api/admin/feeds', () =>
        HttpResponse.json({
          total: 3,
          limit: 1000,
          offset: 0,
          items: [
            feed('f1111111-1111-4111-8111-111111111111', 'DELF00NLD'),
            feed('f2222222-2222-4222-8222-222222222222', 'UTRE00NLD'),
            feed('f3333333-3333-4333-8333-333333333333', 'ZWOL00NLD'),
          ],
        }),
      ),
      http.get('*/api/admin/ntrip-live-sources', () =>
        HttpResponse.json({
          complete: true,
          items: [
            {
              node: 'node-a',
              mountpoint: 'DELF00NLD',
              kind: 'push',
              address: '203.0.113.50',
              connectedAt: '2026-11-24T08:00:00.000Z',
              lastFrameAt: '2026-11-24T10:05:59.400Z',
              lastFrameAgeSeconds: 0.6,
              bytesPerSecond: 1180,
              receiving: true,
            },
            {
              node: 'node-a',
              mountpoint: 'UTRE00NLD',
              kind: 'push',
              address: '203.0.113.51',
              connectedAt: '2026-11-24T09:00:00.000Z',
              lastFrameAt: '2026-11-24T10:04:00.000Z',
              lastFrameAgeSeconds: 120,
              bytesPerSecond: 0,
              receiving: false,
            },
          ],
        }),
      ),
    );
    const { AdminFeedPage } = await import('../../../src/features/catalogue/AdminFeedPage');
    const { Route, Routes } = await import('react-router');
    renderWithProviders(
      <Routes>
        <Route path="/admin/feed/:networkId" element={<AdminFeedPage />} />
      </Routes>,
      { route: `/admin/feed/${net.id}` },
    );
    const row = (mountpoint: string) => screen.getByText(mountpoint).closest('tr') as HTMLElement;
    await screen.findByText('203.0.113.50');
    expect(row('DELF00NLD')).toHaveTextContent(/Receiving.*1180.*1 s ago.*203\.0\.113\.50/);
    expect(row('UTRE00NLD')).toHaveTextContent(/No data.*0.*120 s ago.*203\.0\.113\.51/);
    expect(row('ZWOL00NLD')).toHaveTextContent('Not connected');
  });
});
