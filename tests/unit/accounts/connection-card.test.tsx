import { type AccountMountpoint, ntripAccountWithPasswordSchema } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConnectionCard } from '../../../src/features/accounts/ConnectionCard';
import { rtkrcvOptions, str2strCommand } from '../../../src/features/accounts/client-presets';
import { relayAddress } from '../../../src/features/accounts/relay';
import { AuthContext } from '../../../src/features/auth/auth-context';
import { renderWithProviders } from '../support/render';
import { account, mountpoints, user } from './fixtures';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.unstubAllGlobals();
});
afterAll(() => server.close());

const { host, port } = relayAddress();

function setup(password?: string) {
  server.use(http.get('*/api/ntrip-accounts/:id/mountpoints', () => HttpResponse.json({ items: mountpoints })));
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
    server.use(http.get('*/api/ntrip-accounts/:id/mountpoints', () => HttpResponse.json({ items: many })));
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

describe('client presets', () => {
  const base = {
    host: 'caster.example.com',
    port: 2101,
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
});
