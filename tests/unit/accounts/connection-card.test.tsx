import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AccountMountpoint,
  connectionTestResultSchema,
  ntripAccountWithPasswordSchema,
  rtcmMessageInfo,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionCard } from '../../../src/features/accounts/ConnectionCard';
import {
  EMLID_GGA_CHECKBOX,
  emlidReachFields,
  rtkrcvOptions,
  SW_MAPS_GGA_SWITCH,
  str2strCommand,
  swMapsFields,
} from '../../../src/features/accounts/client-presets';
import { relayAddress } from '../../../src/features/accounts/relay';
import { AuthContext } from '../../../src/features/auth/auth-context';
import { account, mountpoints, network, user } from '../support/factories';
import { renderWithProviders } from '../support/render';
import { server } from '../support/server';

afterEach(() => {
  vi.unstubAllGlobals();
});

const { host, port, tlsPort } = relayAddress();

const RD = { frame: 'ETRS89', realisation: 'ETRF2000', epoch: 2010.5, nationalGrid: 'RD/NAP' };
const noSessions = { items: [], total: 0, limit: 20, offset: 0 };

function setup(password?: string, { items = mountpoints, sessions = noSessions as object } = {}) {
  server.use(
    http.get('*/api/ntrip-accounts/:id/mountpoints', () => HttpResponse.json({ items })),
    http.get('*/api/ntrip-accounts/:id/sessions', () => HttpResponse.json(sessions)),
    http.get('*/api/networks', () => HttpResponse.json({ items: [network({ referenceFrame: RD })] })),
  );
  renderWithProviders(<ConnectionCard account={account()} password={password} />, {
    wrapper: (children) => <AuthContext.Provider value={user}>{children}</AuthContext.Provider>,
  });
  return userEvent.setup();
}

async function typePosition(u: ReturnType<typeof userEvent.setup>, lat: string, lon: string, hgt = '') {
  await u.type(screen.getByLabelText('Latitude (°):'), lat);
  await u.type(screen.getByLabelText('Longitude (°):'), lon);
  if (hgt) await u.type(screen.getByLabelText('Height (m):'), hgt);
}

describe('connection card', () => {
  it("names the reference frame of the chosen mountpoint's network", async () => {
    setup();
    expect(await screen.findByTestId('card-frame')).toHaveTextContent(
      'Coordinates from Netherlands RTK are in: ETRS89 ETRF2000 · epoch 2010.5 · related to RD/NAP',
    );
  });

  it('puts the password shown once into the ready line, and copies everything with "Copy all"', async () => {
    const u = setup('S3cretPassw0rdXYZabc');
    expect(await screen.findByTestId('str2str-line')).toHaveTextContent(
      `str2str -in ntrip://rtk-abcd2345:S3cretPassw0rdXYZabc@${host}:${port}/GRON00NLD0 -out file://corrections.rtcm3`,
    );
    expect(screen.getByTestId('new-password')).toHaveTextContent('S3cretPassw0rdXYZabc');
    expect(screen.getByRole('alert')).toHaveTextContent(/shown only this once/);
    await u.click(screen.getByRole('button', { name: 'Copy all' }));
    expect(await navigator.clipboard.readText()).toBe(
      [
        `Caster host: ${host}`,
        `Port: ${port}`,
        'Username: rtk-abcd2345',
        'Password: S3cretPassw0rdXYZabc',
        'Mountpoint: GRON00NLD0',
        'NTRIP version: 2.0 or 1.0 (both work)',
        'Send position (NMEA GGA): Not needed',
        'Data format: RTCM 3',
        '',
        'RTKLIB str2str:',
        `str2str -in ntrip://rtk-abcd2345:S3cretPassw0rdXYZabc@${host}:${port}/GRON00NLD0 -out file://corrections.rtcm3`,
      ].join('\n'),
    );
    expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument();
  });

  it('with a typed position recommends the nearest-station mountpoint and sends the position with -p and -n', async () => {
    const u = setup();
    await screen.findByTestId('str2str-line');
    await typePosition(u, '52.0', '4.37', '45.5');
    expect(screen.getByTestId('recommended-mountpoint')).toHaveTextContent('NL-RTK_NEAR');
    expect(screen.getByText(/serves DLFT00NLD0 \(Delft\), 1\.5 km away/)).toBeInTheDocument();
    expect(screen.getByTestId('str2str-line')).toHaveTextContent(
      `str2str -in ntrip://rtk-abcd2345:<password>@${host}:${port}/NL-RTK_NEAR -p 52.0000000 4.3700000 45.5 -n 5000 -out file://corrections.rtcm3`,
    );
    // Nearest first: Delft (1.5 km) before Groningen (201 km).
    const list = screen.getByRole('region', { name: 'Mountpoints' });
    const names = within(list)
      .getAllByRole('listitem')
      .map((li) => li.querySelector('code')?.textContent);
    expect(names).toEqual(['NL-RTK_NEAR', 'DLFT00NLD0', 'GRON00NLD0']);
    expect(within(list).getByText(/Delft · 1\.5 km/)).toBeInTheDocument();
  });

  it('refuses to show a line for the nearest-station mountpoint without a position', async () => {
    const u = setup();
    await screen.findByTestId('str2str-line');
    await u.click(screen.getByRole('button', { name: 'Use mountpoint NL-RTK_NEAR' }));
    expect(screen.queryByTestId('str2str-line')).not.toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(/sends nothing without one/);
    await typePosition(u, '53.2', '6.5');
    expect(screen.getByTestId('str2str-line')).toHaveTextContent('/NL-RTK_NEAR -p 53.2000000 6.5000000 0.0 -n 5000');
    await u.click(screen.getByRole('button', { name: 'Use mountpoint DLFT00NLD0' }));
    expect(screen.getByTestId('str2str-line')).toHaveTextContent(
      `str2str -in ntrip://rtk-abcd2345:<password>@${host}:${port}/DLFT00NLD0 -out file://corrections.rtcm3`,
    );
  });

  it('recommends no station when none is online, and never says the caster serves an offline one', async () => {
    const u = setup(undefined, { items: mountpoints.map((m) => ({ ...m, online: false })) });
    expect(await screen.findByTestId('none-online')).toHaveTextContent(
      'None of the stations you may use is sending corrections right now',
    );
    expect(screen.queryByTestId('recommended-mountpoint')).not.toBeInTheDocument();
    await typePosition(u, '52.0', '4.37');
    expect(screen.queryByTestId('recommended-mountpoint')).not.toBeInTheDocument();
    expect(screen.queryByText(/the caster serves/)).not.toBeInTheDocument();
    // The settings stay ready for when the station is back: the nearest-station mountpoint with the position.
    expect(screen.getByTestId('str2str-line')).toHaveTextContent('/NL-RTK_NEAR -p 52.0000000 4.3700000 0.0');
  });

  it('with only a far station online, recommends that one, not the nearer offline one', async () => {
    const u = setup(undefined, {
      items: mountpoints.map((m) => (m.mountpoint === 'DLFT00NLD0' ? { ...m, online: false } : m)),
    });
    await screen.findByTestId('str2str-line');
    await typePosition(u, '52.0', '4.37');
    expect(screen.getByText(/serves GRON00NLD0 \(Groningen\)/)).toBeInTheDocument();
  });

  it('offers the last position a rover of the account sent (GGA), filled in on request', async () => {
    const session = {
      id: '1',
      mountpoint: 'NL-RTK_NEAR',
      remoteAddress: '127.0.0.1',
      startedAt: '2026-11-20T10:00:00.000Z',
      endedAt: '2026-11-20T11:00:00.000Z',
      durationSeconds: 3600,
      bytesSent: 1000,
      endReason: 'client_closed',
      lastPosition: { latitude: 53.2101, longitude: 6.5602 },
    };
    const u = setup(undefined, { sessions: { ...noSessions, items: [session], total: 1 } });
    await screen.findByTestId('str2str-line');
    expect(screen.getByLabelText('Latitude (°):')).toHaveValue('');
    await u.click(
      await screen.findByRole('button', { name: /Use the position your rover last sent \(53\.2101, 6\.5602/ }),
    );
    expect(screen.getByLabelText('Latitude (°):')).toHaveValue('53.2101');
    expect(screen.getByTestId('str2str-line')).toHaveTextContent('/NL-RTK_NEAR -p 53.2101000 6.5602000 0.0 -n 5000');
    expect(screen.queryByRole('button', { name: /Use the position your rover last sent/ })).not.toBeInTheDocument();
  });

  it("asks the browser's geolocation only when the button is pressed", async () => {
    const getCurrentPosition = vi.fn((success: PositionCallback) =>
      success({
        coords: { latitude: 53.21, longitude: 6.56, altitude: 2.25 },
      } as GeolocationPosition),
    );
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator), { geolocation: { getCurrentPosition } }));
    const u = setup();
    await screen.findByTestId('str2str-line');
    expect(getCurrentPosition).not.toHaveBeenCalled();
    await u.click(screen.getByRole('button', { name: 'Use my location' }));
    expect(getCurrentPosition).toHaveBeenCalledTimes(1);
    expect(screen.getByLabelText('Latitude (°):')).toHaveValue('53.21');
    expect(screen.getByTestId('str2str-line')).toHaveTextContent('/NL-RTK_NEAR -p 53.2100000 6.5600000 2.3 -n 5000');
    expect(screen.getByText(/serves GRON00NLD0 \(Groningen\)/)).toBeInTheDocument();
  });

  it('says so when the browser refuses the location', async () => {
    const getCurrentPosition = vi.fn((_ok: PositionCallback, fail: PositionErrorCallback) =>
      fail({ code: 1, PERMISSION_DENIED: 1 } as GeolocationPositionError),
    );
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator), { geolocation: { getCurrentPosition } }));
    const u = setup();
    await screen.findByTestId('str2str-line');
    await u.click(screen.getByRole('button', { name: 'Use my location' }));
    expect(screen.getByRole('alert')).toHaveTextContent('did not allow access to your location');
  });

  it('regenerates the password on request and shows it in the same card', async () => {
    let calls = 0;
    server.use(
      http.post('*/api/ntrip-accounts/:id/password', () => {
        calls++;
        return HttpResponse.json(
          ntripAccountWithPasswordSchema.parse({ account: account(), password: 'NewPassw0rdAbcdefGhjk' }),
        );
      }),
      http.get('*/api/ntrip-accounts', () => HttpResponse.json({ items: [account()] })),
    );
    const u = setup();
    await screen.findByTestId('str2str-line');
    expect(screen.queryByTestId('new-password')).not.toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Regenerate and show' }));
    expect(screen.getByText(/stops working at once/)).toBeInTheDocument();
    expect(calls).toBe(0);
    await u.click(screen.getByRole('button', { name: 'Regenerate' }));
    expect(await screen.findByTestId('new-password')).toHaveTextContent('NewPassw0rdAbcdefGhjk');
    expect(calls).toBe(1);
    expect(screen.getByTestId('str2str-line')).toHaveTextContent('rtk-abcd2345:NewPassw0rdAbcdefGhjk@');
  });

  it("shows SW Maps' NTRIP Client fields in the recorded words and order, each copyable and in 'Copy all'", async () => {
    const u = setup('S3cretPassw0rdXYZabc');
    await screen.findByTestId('str2str-line');
    // The app sends its receiver's own position: the nearest-station mountpoint needs none typed here.
    await u.click(screen.getByRole('button', { name: 'Use mountpoint NL-RTK_NEAR' }));
    await u.click(screen.getByRole('tab', { name: 'SW Maps' }));
    const preset = screen.getByTestId('swmaps-preset');
    expect(within(preset).queryByRole('alert')).not.toBeInTheDocument();
    const labels = within(preset)
      .getAllByRole('button', { name: /^Copy / })
      .map((b) => b.getAttribute('aria-label')?.replace(/^Copy /, ''));
    const gga = within(preset).getByTestId('swmaps-gga').textContent ?? '';
    expect([...labels, gga.slice(0, gga.indexOf(':'))]).toEqual(swMapsDoc.fields);
    const shown = Object.fromEntries(
      swMapsDoc.fields.slice(0, -1).map((label) => [label, screen.getByTestId(`swmaps-${label}`).textContent]),
    );
    expect(shown).toEqual({
      'NTRIP Version': 'V1',
      'NTRIP Server': host,
      'NTRIP Port': String(port),
      'Mount Point': 'NL-RTK_NEAR',
      Username: 'rtk-abcd2345',
      Password: 'S3cretPassw0rdXYZabc',
    });
    expect(gga).toBe(
      'Send NMEA GGA to Base Station: switch it on (the nearest-station mountpoint needs your position)',
    );
    await u.click(within(preset).getByRole('button', { name: 'Copy Mount Point' }));
    expect(await navigator.clipboard.readText()).toBe('NL-RTK_NEAR');
    await u.click(screen.getByRole('button', { name: 'Copy all' }));
    expect((await navigator.clipboard.readText()).split('\n').slice(-8)).toEqual([
      'SW Maps:',
      'NTRIP Version: V1',
      `NTRIP Server: ${host}`,
      `NTRIP Port: ${port}`,
      'Mount Point: NL-RTK_NEAR',
      'Username: rtk-abcd2345',
      'Password: S3cretPassw0rdXYZabc',
      'Send NMEA GGA to Base Station: switch it on (the nearest-station mountpoint needs your position)',
    ]);
    // A fixed station: the switch stays off.
    await u.click(screen.getByRole('button', { name: 'Use mountpoint DLFT00NLD0' }));
    expect(screen.getByTestId('swmaps-gga')).toHaveTextContent('Send NMEA GGA to Base Station: leave it off');
  });

  it('shows the TLS port, and stunnel with str2str through it for clients without TLS, in "Copy all" too', async () => {
    const u = setup('S3cretPassw0rdXYZabc');
    await screen.findByTestId('str2str-line');
    expect(screen.getByTestId('caster-tls-port')).toHaveTextContent(String(tlsPort));
    await u.click(screen.getByRole('tab', { name: 'NTRIP over TLS' }));
    expect(screen.getByTestId('tls-port')).toHaveTextContent(String(tlsPort));
    expect(screen.getByText(/RTKLIB \(str2str, rtkrcv\) and most receivers do not speak TLS/)).toBeInTheDocument();
    const config = [
      'foreground = yes',
      '[ntrip]',
      'client = yes',
      'accept = 127.0.0.1:12101',
      `connect = ${host}:${tlsPort}`,
      'verifyChain = yes',
      'CAfile = /etc/ssl/certs/ca-certificates.crt',
      `checkHost = ${host}`,
    ];
    expect(screen.getByTestId('stunnel-config').textContent).toContain(config.join('\n'));
    // The portal of `npm start` serves a certificate it made itself: the card gives the CAfile line for it.
    expect(
      screen.getByText(/The portal that npm start runs on your computer has such a certificate/),
    ).toHaveTextContent('data/tls/localhost-cert.pem');
    expect(screen.getByTestId('stunnel-local-ca')).toHaveTextContent('CAfile = data/tls/localhost-cert.pem');
    expect(screen.getByTestId('stunnel-command')).toHaveTextContent('stunnel ntrip-tls.conf');
    const line =
      'str2str -in ntrip://rtk-abcd2345:S3cretPassw0rdXYZabc@127.0.0.1:12101/GRON00NLD0 -out file://corrections.rtcm3';
    expect(screen.getByTestId('stunnel-str2str-line')).toHaveTextContent(line);
    await u.click(screen.getByRole('button', { name: 'Copy all' }));
    expect((await navigator.clipboard.readText()).split('\n').slice(-15)).toEqual([
      'NTRIP over TLS:',
      `Port with TLS: ${tlsPort}`,
      '',
      'stunnel configuration (save as ntrip-tls.conf):',
      ...config,
      '',
      'stunnel ntrip-tls.conf',
      line,
    ]);
  });

  it('shows no str2str line through stunnel for the nearest-station mountpoint without a position', async () => {
    const u = setup();
    await screen.findByTestId('str2str-line');
    await u.click(screen.getByRole('button', { name: 'Use mountpoint NL-RTK_NEAR' }));
    await u.click(screen.getByRole('tab', { name: 'NTRIP over TLS' }));
    expect(screen.getByTestId('stunnel-command')).toBeInTheDocument();
    expect(screen.queryByTestId('stunnel-str2str-line')).toBeNull();
    expect(screen.getByRole('alert')).toHaveTextContent(/sends nothing without one/);
  });

  it('shows rtkrcv configuration lines and the generic field list', async () => {
    const u = setup();
    await screen.findByTestId('str2str-line');
    await typePosition(u, '52.0', '4.37');
    await u.click(screen.getByRole('tab', { name: 'RTKLIB rtkrcv' }));
    expect(screen.getByTestId('rtkrcv-options').textContent).toBe(
      [
        'inpstr2-type       =ntripcli',
        `inpstr2-path       =rtk-abcd2345:<password>@${host}:${port}/NL-RTK_NEAR`,
        'inpstr2-format     =rtcm3',
        'inpstr2-nmeareq    =latlon',
        'inpstr2-nmealat    =52.0000000',
        'inpstr2-nmealon    =4.3700000',
        'inpstr2-nmeahgt    =0.0',
        'misc-nmeacycle     =5000',
      ].join('\n'),
    );
    // Debian's rtkrcv cannot log in itself: str2str does, and serves rtkrcv on a local port.
    expect(screen.getByTestId('rtkrcv-relay-command')).toHaveTextContent(
      `str2str -in ntrip://rtk-abcd2345:<password>@${host}:${port}/NL-RTK_NEAR -p 52.0000000 4.3700000 0.0 -n 5000 -out tcpsvr://:2102`,
    );
    expect(screen.getByTestId('rtkrcv-relay-options').textContent).toBe(
      [
        'inpstr2-type       =tcpcli',
        'inpstr2-path       =127.0.0.1:2102',
        'inpstr2-format     =rtcm3',
        'inpstr2-nmeareq    =off',
      ].join('\n'),
    );
    await u.click(screen.getByRole('tab', { name: 'Emlid Reach' }));
    expect(screen.getByTestId('emlid-Mount point')).toHaveTextContent('NL-RTK_NEAR');
    expect(screen.getByTestId('emlid-gga')).toHaveTextContent(
      'Send NMEA GGA messages to the corrections provider: tick it',
    );
    await u.click(screen.getByRole('tab', { name: 'Any client' }));
    expect(screen.getByTestId('generic-mountpoint')).toHaveTextContent('NL-RTK_NEAR');
    expect(screen.getByTestId('generic-gga')).toHaveTextContent('Yes, every 5 seconds');
    expect(screen.getByTestId('generic-password')).toHaveTextContent('<password>');
    await u.click(screen.getByRole('button', { name: 'Copy Mountpoint' }));
    expect(await navigator.clipboard.readText()).toBe('NL-RTK_NEAR');
  });

  it('searches a long list as plain text, never as a pattern', async () => {
    const many = Array.from({ length: 12 }, (_, i) => ({
      ...(mountpoints[2] as AccountMountpoint),
      mountpoint: `ST${String(i).padStart(2, '0')}NLD0`,
      identifier: i === 7 ? 'Zwolle (a.b)' : `Place ${i}`,
    }));
    server.use(
      http.get('*/api/ntrip-accounts/:id/mountpoints', () => HttpResponse.json({ items: many })),
      http.get('*/api/networks', () => HttpResponse.json({ items: [network()] })),
      http.get('*/api/ntrip-accounts/:id/sessions', () => HttpResponse.json(noSessions)),
    );
    renderWithProviders(<ConnectionCard account={account()} />, {
      wrapper: (children) => <AuthContext.Provider value={user}>{children}</AuthContext.Provider>,
    });
    const u = userEvent.setup();
    const list = await screen.findByRole('region', { name: 'Mountpoints' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(12));
    await u.type(within(list).getByLabelText('Search mountpoints:'), 'zwolle (a.');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('code')?.textContent),
    ).toEqual(['ST07NLD0']);
    await u.clear(within(list).getByLabelText('Search mountpoints:'));
    await u.type(within(list).getByLabelText('Search mountpoints:'), '.*');
    expect(within(list).queryAllByRole('listitem')).toHaveLength(0);
    expect(within(list).getByText('No mountpoint matches your search.')).toBeInTheDocument();
  });
});

describe('test connection', () => {
  const ok = connectionTestResultSchema.parse({
    mountpoint: 'GRON00NLD0',
    ok: true,
    reason: null,
    casterAnswer: 'HTTP/1.1 200 OK',
    durationMs: 10_000,
    bytes: 152_000,
    frames: 480,
    firstFrameAfterMs: 120,
    lastFrameAgeMs: 400,
    observationAgeSeconds: 1.2,
    stationId: 2,
    messages: [1005, 1033, 1077, 1087, 1019].map((type, i) => ({ type, count: i + 1, ...rtcmMessageInfo(type) })),
    satellites: [
      { constellation: 'GPS', count: 11 },
      { constellation: 'GLONASS', count: 7 },
    ],
  });

  it('runs on the chosen mountpoint with the position, and lists the message types with their meaning', async () => {
    let body: unknown;
    server.use(
      http.post('*/api/ntrip-accounts/:id/test-connection', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(ok);
      }),
    );
    const u = setup();
    await screen.findByTestId('str2str-line');
    await u.click(screen.getByRole('button', { name: 'Test GRON00NLD0' }));
    const result = await screen.findByTestId('connection-test-result');
    expect(body).toEqual({ mountpoint: 'GRON00NLD0' });
    expect(result).toHaveTextContent('Corrections arrive on GRON00NLD0');
    expect(result).toHaveTextContent('HTTP/1.1 200 OK');
    expect(result).toHaveTextContent('480 RTCM 3 frames, 152 kB in 10 s');
    expect(result).toHaveTextContent('1.2 s behind the portal');
    expect(within(result).getByTestId('connection-test-satellites')).toHaveTextContent('GPS 11 · GLONASS 7');
    const rows = within(within(result).getByTestId('connection-test-messages'))
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    expect(rows).toEqual([
      '1005Station position (antenna reference point)1',
      '1033Antenna and receiver description2',
      '1077GPS observations (MSM7)3',
      '1087GLONASS observations (MSM7)4',
      '1019GPS ephemeris (satellite orbits)5',
    ]);

    await typePosition(u, '52.0', '4.37');
    server.use(
      http.post('*/api/ntrip-accounts/:id/test-connection', () =>
        HttpResponse.json({ ...ok, mountpoint: 'NL-RTK_NEAR' }),
      ),
    );
    await u.click(screen.getByRole('button', { name: 'Test NL-RTK_NEAR' }));
    await screen.findByText('Corrections arrive on NL-RTK_NEAR');
  });

  it('says in plain words why nothing came, and when the user tested too often', async () => {
    let calls = 0;
    server.use(
      http.post('*/api/ntrip-accounts/:id/test-connection', () => {
        calls++;
        if (calls > 1) return HttpResponse.json({ code: 'rate_limited', message: 'Too many' }, { status: 429 });
        return HttpResponse.json(
          connectionTestResultSchema.parse({
            ...ok,
            ok: false,
            reason: 'no_access',
            casterAnswer: 'HTTP/1.1 403 Forbidden',
            bytes: 0,
            frames: 0,
            firstFrameAfterMs: null,
            lastFrameAgeMs: null,
            observationAgeSeconds: null,
            stationId: null,
            messages: [],
            satellites: [],
          }),
        );
      }),
    );
    const u = setup();
    await screen.findByTestId('str2str-line');
    await u.click(screen.getByRole('button', { name: 'Test GRON00NLD0' }));
    const result = await screen.findByTestId('connection-test-result');
    expect(result).toHaveTextContent('no access to the network of GRON00NLD0 now');
    expect(result).toHaveTextContent('The caster answered: HTTP/1.1 403 Forbidden');
    await u.click(screen.getByRole('button', { name: 'Test GRON00NLD0' }));
    expect(await screen.findByText(/wait a minute and try again/)).toBeInTheDocument();
  });
});

/** Emlid's documentation of the Reach's NTRIP correction input, as recorded (source in the file). */
const emlidDoc = JSON.parse(
  readFileSync(join(import.meta.dirname, 'fixtures/emlid-reach-correction-input.json'), 'utf8'),
) as { quoted: string[]; fields: string[]; formats: string[]; ggaCheckbox: string };

/** SparkFun's guide to SW Maps' NTRIP Client window, as recorded (source and caveats in the file). */
const swMapsDoc = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/sw-maps-ntrip-client.json'), 'utf8')) as {
  quoted: string[];
  fields: string[];
  versions: string[];
  ggaSwitch: string;
};

describe('client presets', () => {
  const base = {
    host: 'caster.example.com',
    port: 2101,
    tlsPort: 2102,
    username: 'rtk-abcd2345',
    mountpoint: 'DLFT00NLD0',
    near: false,
  };

  it('builds str2str lines: fixed without a position, nearest-station with -p and -n, none without a position', () => {
    expect(str2strCommand({ ...base, password: 'pw' })).toBe(
      'str2str -in ntrip://rtk-abcd2345:pw@caster.example.com:2101/DLFT00NLD0 -out file://corrections.rtcm3',
    );
    expect(
      str2strCommand({
        ...base,
        mountpoint: 'NL_NEAR',
        near: true,
        position: { latitude: -33.8568, longitude: 151.2153, height: 12 },
      }),
    ).toBe(
      'str2str -in ntrip://rtk-abcd2345:<password>@caster.example.com:2101/NL_NEAR -p -33.8568000 151.2153000 12.0 -n 5000 -out file://corrections.rtcm3',
    );
    expect(str2strCommand({ ...base, mountpoint: 'NL_NEAR', near: true })).toBeUndefined();
    expect(rtkrcvOptions({ ...base, mountpoint: 'NL_NEAR', near: true })).toBeUndefined();
    expect(rtkrcvOptions({ ...base, password: 'pw' })?.split('\n')).toEqual([
      'inpstr2-type       =ntripcli',
      'inpstr2-path       =rtk-abcd2345:pw@caster.example.com:2101/DLFT00NLD0',
      'inpstr2-format     =rtcm3',
      'inpstr2-nmeareq    =off',
    ]);
  });

  it('SW Maps: the fields of the recorded guide to its NTRIP Client window, in its words and order', () => {
    const fields = swMapsFields({ ...base, password: 'pw' });
    expect([...fields.map((f) => f.label), SW_MAPS_GGA_SWITCH]).toEqual(swMapsDoc.fields);
    for (const label of swMapsDoc.fields) expect(swMapsDoc.quoted.some((q) => q.startsWith(`${label}: `))).toBe(true);
    expect(SW_MAPS_GGA_SWITCH).toBe(swMapsDoc.ggaSwitch);
    expect(swMapsDoc.versions).toContain(fields.find((f) => f.label === 'NTRIP Version')?.value);
    expect(fields.map((f) => f.value)).toEqual([
      'V1',
      'caster.example.com',
      '2101',
      'DLFT00NLD0',
      'rtk-abcd2345',
      'pw',
    ]);
  });

  it("Emlid Reach: the fields of Emlid's correction-input documentation, in its words and order", () => {
    const fields = emlidReachFields({ ...base, password: 'pw' });
    expect(fields.map((f) => f.label)).toEqual(emlidDoc.fields);
    for (const label of emlidDoc.fields) expect(emlidDoc.quoted.join('\n')).toContain(`+ ${label}`);
    expect(emlidDoc.formats).toContain(fields.find((f) => f.label === 'Format')?.value);
    expect(EMLID_GGA_CHECKBOX).toBe(emlidDoc.ggaCheckbox);
    expect(emlidDoc.quoted.join('\n')).toContain(`Tick the “${EMLID_GGA_CHECKBOX}”`);
    expect(fields.map((f) => f.value)).toEqual([
      'caster.example.com',
      '2101',
      'rtk-abcd2345',
      'pw',
      'DLFT00NLD0',
      'RTCM3',
    ]);
  });
});
